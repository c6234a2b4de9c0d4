/** pagy-style page arithmetic and headers, kept apart from the route for clarity. */

export interface PageRequest {
  page: number;
  /** After the silent cap. */
  perPage: number;
  countless: boolean;
  /** Extra query parameters the links keep (sort, countless). */
  keep: Record<string, string>;
}

export interface PageResult<T> {
  items: T[];
  total: number;
  totalPages: number;
  hasNext: boolean;
}

export function paginate<T>(all: readonly T[], request: PageRequest): PageResult<T> {
  const start = (request.page - 1) * request.perPage;
  const items = all.slice(start, start + request.perPage);
  const totalPages = Math.max(1, Math.ceil(all.length / request.perPage));
  return { items, total: all.length, totalPages, hasNext: start + request.perPage < all.length };
}

/** Parses a positive integer query value; undefined/empty gives the fallback, anything else invalid gives null. */
export function positiveInteger(value: unknown, fallback: number): number | null {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return null;
  const parsed = Number(value);
  return parsed >= 1 ? parsed : null;
}

function pageUrl(baseUrl: string, request: PageRequest, page: number): string {
  const query = new URLSearchParams({ page: String(page), per_page: String(request.perPage), ...request.keep });
  return `${baseUrl}?${query.toString()}`;
}

/** The headers pagy's `pagy_headers` sets; countless mode has no total and no last page. */
export function paginationHeaders(baseUrl: string, request: PageRequest, result: PageResult<unknown>): Record<string, string> {
  const links: string[] = [`<${pageUrl(baseUrl, request, 1)}>; rel="first"`];
  if (request.page > 1) links.push(`<${pageUrl(baseUrl, request, request.page - 1)}>; rel="prev"`);
  if (result.hasNext) links.push(`<${pageUrl(baseUrl, request, request.page + 1)}>; rel="next"`);
  if (!request.countless) links.push(`<${pageUrl(baseUrl, request, result.totalPages)}>; rel="last"`);
  const headers: Record<string, string> = {
    'current-page': String(request.page),
    'page-items': String(request.perPage),
    link: links.join(', '),
  };
  if (!request.countless) {
    headers['total'] = String(result.total);
    headers['total-pages'] = String(result.totalPages);
  }
  return headers;
}
