import type { UserPage } from '../shared/users';
import { normalizeUser } from './user-record';
import type { MessageText } from '../shared/message-text';
import { msg, wordInEnglish } from '../shared/messages';

export interface ListRequestShape {
  page: number;
  perPage: number;
}

/** Raised for a body that is not one of the list shapes; the caller turns it into UNEXPECTED_RESPONSE. `text` is a body.* phrase, `said` the service's own words. */
export class ListShapeError extends Error {
  constructor(
    readonly text: MessageText,
    readonly said?: string,
  ) {
    super(wordInEnglish(text) + (said ? `: “${said}”` : ''));
  }
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads every list variant of docs/SERVICE-API.md#list-body: `{success, data}`, a bare array,
 * `{users}`, `{data, meta}`, with pagy headers or none at all.
 */
export function parseUserPage(body: unknown, headers: Headers, asked: ListRequestShape): UserPage {
  const { records, meta } = extractRecords(body);
  const users = records.map((record, index) => {
    if (!isObject(record)) throw new ListShapeError(msg('body.userNotObject', { number: index + 1 }));
    return normalizeUser(record);
  });
  const paging = readPaging(headers, meta);
  const page = paging.page ?? asked.page;
  const totalPages = paging.totalPages;
  const hasNext = decideHasNext(paging, page, users.length, asked.perPage);
  const result: UserPage = { users, page, perPage: asked.perPage, hasNext };
  if (paging.total !== undefined) result.total = paging.total;
  if (totalPages !== undefined) result.totalPages = totalPages;
  return result;
}

function extractRecords(body: unknown): { records: unknown[]; meta: JsonObject | undefined } {
  if (Array.isArray(body)) return { records: body, meta: undefined };
  if (!isObject(body)) throw new ListShapeError(msg('body.neitherListNorObject'));
  if (body.success === false) {
    throw new ListShapeError(msg('body.listFailure'), typeof body.error === 'string' ? body.error.slice(0, 200) : undefined);
  }
  const meta = isObject(body.meta) ? body.meta : isObject(body.pagination) ? body.pagination : undefined;
  for (const key of ['data', 'users', 'results', 'items']) {
    const value = body[key];
    if (Array.isArray(value)) return { records: value, meta };
    // Tolerate one level of nesting, e.g. {"data": {"users": [...]}}.
    if (isObject(value)) {
      for (const inner of ['users', 'data', 'resources', 'items']) {
        if (Array.isArray(value[inner])) return { records: value[inner] as unknown[], meta: meta ?? (isObject(value.meta) ? value.meta : undefined) };
      }
    }
  }
  throw new ListShapeError(msg('body.noUserList'));
}

interface Paging {
  page?: number;
  total?: number;
  totalPages?: number;
  /** true/false when the service said whether a next page exists; undefined when it did not say. */
  next?: boolean;
  /** Items the service actually puts on a page (may be lower than asked: a silent cap). */
  pageItems?: number;
}

function readPaging(headers: Headers, meta: JsonObject | undefined): Paging {
  const paging: Paging = {
    page: headerInt(headers, 'current-page', 'x-page', 'x-current-page'),
    total: headerInt(headers, 'total', 'x-total', 'x-total-count'),
    totalPages: headerInt(headers, 'total-pages', 'x-total-pages'),
    pageItems: headerInt(headers, 'page-items', 'x-per-page'),
  };
  const link = headers.get('link');
  // A Link header lists the neighbours: rel=next present means more; a Link without it means this is the last page.
  if (link !== null && link.trim() !== '') paging.next = /rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/i.test(link);
  if (meta) {
    paging.page ??= metaInt(meta, 'page', 'current_page', 'currentPage');
    paging.total ??= metaInt(meta, 'total', 'total_count', 'totalCount', 'count');
    paging.totalPages ??= metaInt(meta, 'total_pages', 'totalPages', 'pages', 'last', 'last_page');
    paging.pageItems ??= metaInt(meta, 'per_page', 'perPage', 'items', 'limit');
    if (paging.next === undefined) {
      for (const key of ['next', 'next_page', 'nextPage']) {
        if (!(key in meta)) continue;
        const value = meta[key];
        paging.next = value !== null && value !== false && value !== '';
        break;
      }
    }
  }
  return paging;
}

function decideHasNext(paging: Paging, page: number, count: number, askedPerPage: number): boolean {
  if (paging.next !== undefined) return paging.next;
  if (paging.totalPages !== undefined) return page < paging.totalPages;
  if (paging.total !== undefined) {
    // A service may cap per_page silently: a page shorter than asked, with no page-items to say so,
    // is taken as the real page size (at worst one extra, empty page), never as "no more users".
    const served = count > 0 ? Math.min(count, askedPerPage) : askedPerPage;
    const perPage = paging.pageItems !== undefined && paging.pageItems > 0 ? Math.min(paging.pageItems, askedPerPage) : served;
    return page * perPage < paging.total;
  }
  // No paging information at all (docs/SERVICE-API.md#pagination): only a full page can have a successor.
  return count >= askedPerPage && count > 0;
}

function toInt(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : undefined;
}

function headerInt(headers: Headers, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = toInt(headers.get(name));
    if (value !== undefined) return value;
  }
  return undefined;
}

function metaInt(meta: JsonObject, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = toInt(meta[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}
