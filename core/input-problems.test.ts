import { describe, expect, it } from 'vitest';
import { isPrivacyDeskError } from '../shared/errors';
import { MAX_UID_LENGTH } from '../shared/uid';
import { assertValidUid, normalizeBaseUrl } from './input-problems';

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!isPrivacyDeskError(error)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error('expected a refusal');
}

describe('assertValidUid', () => {
  it('lets a real uid through', () => {
    expect(() => assertValidUid(' alice@example.com ')).not.toThrow();
  });

  it.each([
    ['', /^The uid is empty\. Enter the uid exactly/],
    ['x'.repeat(MAX_UID_LENGTH + 5), new RegExp(`^The uid is ${(MAX_UID_LENGTH + 5).toLocaleString('en-US')} characters long; uids are at most ${MAX_UID_LENGTH.toLocaleString('en-US')}\\.`)],
    ['alice\n', /control character .*Remove it and try again\.$/],
    ['alice\ud83d', /broken character .*Paste the whole uid again\.$/],
    ['..', /^The uid “\.\.” cannot be sent in a request path\./],
  ])('refuses %j as INVALID_INPUT, saying what to do', (uid, message) => {
    const error = refusal(() => assertValidUid(uid));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(message);
  });
});

describe('normalizeBaseUrl', () => {
  it('returns the stored form of a valid address', () => {
    expect(normalizeBaseUrl(' https://debate.example.com/api/v1/ ')).toBe('https://debate.example.com');
  });

  it.each([
    ['  ', 'Enter the service’s address, for example https://debate.example.com'],
    ['debate.example.com', '“debate.example.com” is not a web address. Enter the service’s address, for example https://debate.example.com'],
    ['ftp://debate.example.com', 'The address must start with https:// (it starts with ftp://).'],
    ['http://debate.example.com', 'The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).'],
    // Only localhost, 127.0.0.0/8 and [::1] are this computer: a name under .localhost is whatever a resolver says.
    ['http://evil.localhost', 'The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).'],
    ['http://sandbox.localhost:4600', 'The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).'],
    ['http://localhost.evil.example', 'The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).'],
    ['http://127.0.0.1.evil.example', 'The address must use https:// — credentials and user data may only travel encrypted. Plain http:// is allowed only for this computer (localhost).'],
    ['https://a:b@debate.example.com', 'Remove the user name and password from the address; credentials go in the key fields.'],
    ['https://debate.example.com?x=1', 'Remove the part after ? or # from the address; enter only the service’s base address.'],
  ])('refuses %j as INVALID_INPUT with the words to fix it', (input, message) => {
    expect(refusal(() => normalizeBaseUrl(input))).toEqual({ code: 'INVALID_INPUT', message });
  });
});
