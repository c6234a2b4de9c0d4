import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json';

describe('parseBoundedJson', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('reads JSON up to the bound and refuses one level more', () => {
    expect(parseBoundedJson(nested(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
    expect(parseBoundedJson(nested(MAX_JSON_DEPTH + 1))).toEqual({ ok: false, problem: `nested more than ${MAX_JSON_DEPTH} levels deep` });
    expect(parseBoundedJson(`{"a":${nested(100_000)}}`)).toMatchObject({ ok: false });
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ uid: '[['.repeat(100), quote: '"{{{\\"[[[', deep: { a: { b: [1] } } });
    expect(parseBoundedJson(text, 4)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(parseBoundedJson(text, 3)).toMatchObject({ ok: false });
  });

  it('says "not JSON" for text that is not JSON', () => {
    expect(parseBoundedJson('{"users": [')).toEqual({ ok: false, problem: 'not JSON' });
    expect(parseBoundedJson('<html>')).toEqual({ ok: false, problem: 'not JSON' });
  });

  it('says too deep before "not JSON" for text that is both, and refuses a million levels without overflowing', () => {
    expect(parseBoundedJson(`${'['.repeat(MAX_JSON_DEPTH + 1)}oops`)).toEqual({ ok: false, problem: `nested more than ${MAX_JSON_DEPTH} levels deep` });
    expect(parseBoundedJson(`${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`)).toEqual({ ok: false, problem: `nested more than ${MAX_JSON_DEPTH} levels deep` });
    const mixed = `{"data":[${'{"x":['.repeat(31)}1${']}'.repeat(31)}]}`; // 2 + 62 levels
    expect(parseBoundedJson(mixed)).toMatchObject({ ok: true });
    expect(parseBoundedJson(mixed, 63)).toMatchObject({ ok: false });
  });
});
