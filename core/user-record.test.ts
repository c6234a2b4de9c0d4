import { describe, expect, it } from 'vitest';
import { normalizeUser } from './user-record';

describe('normalizeUser', () => {
  it('maps the observed record (docs/SERVICE-API.md#user-record)', () => {
    const raw = { id: 1, uid: 'zoë.müller', full_name: 'Zoë Müller', email: 'z@example.org', created_at: '2025-01-02T03:04:05Z', messages_count: 3, votes_count: 0, city: 'Lyon' };
    expect(normalizeUser(raw)).toEqual({
      uid: 'zoë.müller',
      fullName: 'Zoë Müller',
      email: 'z@example.org',
      createdAt: '2025-01-02T03:04:05Z',
      messagesCount: 3,
      votesCount: 0,
      fields: raw,
    });
  });
  it('builds the name from first_name and last_name when full_name is absent', () => {
    expect(normalizeUser({ first_name: 'Jean', last_name: 'Dupont' }).fullName).toBe('Jean Dupont');
    expect(normalizeUser({ full_name: '', last_name: 'Dupont' }).fullName).toBe('Dupont');
  });
  it('survives missing, null and odd fields', () => {
    const user = normalizeUser({ uid: null, full_name: null, messages_count: '12', votes_count: 'many', created_at: 1700000000, extra: { a: 1 } });
    expect(user).toMatchObject({ uid: null, fullName: null, email: null, messagesCount: 12, votesCount: null, createdAt: '2023-11-14T22:13:20.000Z' });
    expect(normalizeUser({ uid: 42 }).uid).toBe('42');
  });
});
