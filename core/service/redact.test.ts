import { describe, expect, it } from 'vitest';
import { excerpt, redactSecrets } from './redact';

describe('redactSecrets', () => {
  it('cuts secrets out, plain and URL-encoded', () => {
    const secret = 'sec/ret+value=1';
    const text = `bad client_secret=${encodeURIComponent(secret)} and ${secret}`;
    const out = redactSecrets(text, [secret, undefined]);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).toContain('[redacted]');
  });
  it('removes any bearer or basic credential', () => {
    const out = redactSecrets('header was Authorization: Bearer abc.def-ghi and Basic dXNlcjpwYXNz', []);
    expect(out).not.toMatch(/bearer|basic|abc\.def|dXNlcjpwYXNz/i);
  });
  it('leaves short strings alone so ordinary words survive', () => {
    expect(redactSecrets('the app failed', ['app'])).toBe('the app failed');
  });
});

describe('excerpt', () => {
  it('makes one bounded line', () => {
    expect(excerpt('a\n  b')).toBe('a b');
    expect(excerpt('x'.repeat(300), 10)).toBe(`${'x'.repeat(10)}…`);
  });
});
