import { describe, expect, it } from 'vitest';
import { parseSandboxArgs, UsageError } from './cli-options';

describe('parseSandboxArgs', () => {
  it('defaults to port 4600 with request logging on', () => {
    expect(parseSandboxArgs([])).toEqual({ port: 4600, faults: {}, variants: {}, quiet: false });
  });

  it('maps every option onto sandbox options', () => {
    const options = parseSandboxArgs([
      '--port', '0', '--users', '42', '--seed', '9', '--token-ttl', '5', '--data', '/tmp/x.json', '--latency', '20',
      '--error-rate', '0.25', '--drop-rate', '0', '--rate-limit', '3', '--rate-limit-window', 'fixed', '--lost-answer-rate', '0.1', '--list-variant', 'users-key', '--logout-error-status', '422',
    ]);
    expect(options).toEqual({
      port: 0, users: 42, seed: 9, tokenTtlSeconds: 5, dataFile: '/tmp/x.json', quiet: false,
      faults: { latencyMs: 20, errorRate: 0.25, dropRate: 0, lostAnswerRate: 0.1, rateLimit: 3, rateLimitWindow: 'fixed' },
      variants: { listBody: 'users-key', logoutErrorStatus: 422 },
    });
  });

  it('turns --list-variant no-headers into "no pagination headers"', () => {
    expect(parseSandboxArgs(['--list-variant', 'no-headers'])).toMatchObject({ variants: { paginationHeaders: false } });
  });

  it.each([
    [['--port', '70000']], [['--users', '-1']], [['--token-ttl', '0']], [['--drop-rate', 'lots']], [['--lost-answer-rate', '1.5']], [['--rate-limit-window', 'rolling']], [['--data', '']], [['extra']],
  ])('refuses %j', (args) => {
    expect(() => parseSandboxArgs(args)).toThrow(UsageError);
  });

  it('reads --logout-lapses: "none" keeps every logout check, a list skips those it names', () => {
    expect(parseSandboxArgs(['--logout-lapses', 'none'])).toMatchObject({ variants: { logoutLapses: [] } });
    expect(parseSandboxArgs(['--logout-lapses', 'alg-none, replay'])).toMatchObject({ variants: { logoutLapses: ['alg-none', 'replay'] } });
    expect(() => parseSandboxArgs(['--logout-lapses', 'alg-none,everything'])).toThrow(/--logout-lapses takes "none" or a comma-separated list/);
    expect(() => parseSandboxArgs(['--logout-lapses', ''])).toThrow(UsageError);
  });

  it('recognises --help', () => {
    expect(parseSandboxArgs(['--help'])).toBe('help');
  });
});
