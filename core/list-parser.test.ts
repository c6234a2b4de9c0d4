import { describe, expect, it } from 'vitest';
import { ListShapeError, parseUserPage } from './list-parser';

const users = (n: number) => Array.from({ length: n }, (_, i) => ({ uid: `u${i}`, full_name: `User ${i}` }));
const asked = { page: 1, perPage: 10 };
const none = new Headers();

describe('parseUserPage body variants', () => {
  it.each([
    ['success-data', { success: true, data: users(3) }],
    ['bare array', users(3)],
    ['users key', { users: users(3) }],
    ['data + meta', { data: users(3), meta: { page: 1 } }],
    ['nested data.users', { data: { users: users(3) } }],
  ])('reads %s', (_name, body) => {
    const page = parseUserPage(body, none, asked);
    expect(page.users.map((user) => user.uid)).toEqual(['u0', 'u1', 'u2']);
    expect(page.hasNext).toBe(false);
  });

  it.each([
    ['a string', 'hello'],
    ['null', null],
    ['an object without a list', { success: true, result: 3 }],
    ['a failure', { success: false, error: 'boom' }],
    ['a list of non-objects', [1, 2]],
  ])('refuses %s', (_name, body) => {
    expect(() => parseUserPage(body, none, asked)).toThrow(ListShapeError);
  });
});

describe('parseUserPage pagination', () => {
  it('without headers: a full page may have a next, a short page is the last', () => {
    expect(parseUserPage(users(10), none, asked).hasNext).toBe(true);
    expect(parseUserPage(users(9), none, asked).hasNext).toBe(false);
    expect(parseUserPage([], none, asked).hasNext).toBe(false);
  });

  it('reads pagy headers', () => {
    const headers = new Headers({ total: '500', 'total-pages': '50', 'current-page': '2', 'page-items': '10' });
    const page = parseUserPage(users(10), headers, { page: 2, perPage: 10 });
    expect(page).toMatchObject({ page: 2, perPage: 10, total: 500, totalPages: 50, hasNext: true });
    const last = parseUserPage(users(10), new Headers({ 'total-pages': '50', 'current-page': '50' }), { page: 50, perPage: 10 });
    expect(last.hasNext).toBe(false);
  });

  it('trusts the headers over a short page (a silent per_page cap)', () => {
    const headers = new Headers({ total: '500', 'total-pages': '100', 'current-page': '1', 'page-items': '5' });
    expect(parseUserPage(users(5), headers, asked).hasNext).toBe(true);
    const onlyTotal = new Headers({ total: '12', 'page-items': '5' });
    expect(parseUserPage(users(5), onlyTotal, { page: 2, perPage: 10 }).hasNext).toBe(true);
    expect(parseUserPage(users(2), onlyTotal, { page: 3, perPage: 10 }).hasNext).toBe(false);
  });

  it('reads Link rel=next, and a Link without next as the last page', () => {
    const next = new Headers({ link: '<http://x/api/v1/users?page=1>; rel="first", <http://x/api/v1/users?page=2>; rel="next"' });
    expect(parseUserPage(users(3), next, asked).hasNext).toBe(true);
    const lastOnly = new Headers({ link: '<http://x/api/v1/users?page=1>; rel="first", <http://x/api/v1/users?page=1>; rel="prev"' });
    expect(parseUserPage(users(10), lastOnly, asked).hasNext).toBe(false);
  });

  it('reads tolerant meta keys', () => {
    expect(parseUserPage({ data: users(10), meta: { total_pages: 3, current_page: 3 } }, none, { page: 3, perPage: 10 })).toMatchObject({ totalPages: 3, hasNext: false });
    expect(parseUserPage({ data: users(2), meta: { next: 2, count: 40 } }, none, asked)).toMatchObject({ total: 40, hasNext: true });
    expect(parseUserPage({ data: users(10), meta: { next: null } }, none, asked).hasNext).toBe(false);
    expect(parseUserPage({ data: users(1), meta: { pages: '4', page: '1', unknown: true } }, none, asked)).toMatchObject({ totalPages: 4, hasNext: true });
  });

  it('with only a total, a page shorter than asked is read as a silent cap, not as the end', () => {
    // 23 users, per_page capped at 5 although 7 were asked: page 4 holds users 16-20, so more exist.
    const page4 = parseUserPage(users(5), new Headers({ total: '23' }), { page: 4, perPage: 7 });
    expect(page4.hasNext).toBe(true);
    const page5 = parseUserPage(users(3), new Headers({ total: '23' }), { page: 5, perPage: 7 });
    expect(page5).toMatchObject({ total: 23 });
  });
});
