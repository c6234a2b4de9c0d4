import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

/**
 * `users find` with the service down says what happened (the connections were cut, or no answer came in
 * time) and the limit it gave up at, in the README's terms: --timeout for each answer, and one page of
 * the list read within twice that, retries included.
 */
describe('privacy-desk users find with the service down', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(30);
  });
  afterAll(() => f.close());

  it('cut connections: NETWORK, the last cut said, given up within twice --timeout for the page', async () => {
    f.sandbox.setFaults({ dropRate: 1 });
    try {
      const started = Date.now();
      const { code, stdout, stderr } = await f.cli(['users', 'find', 'marie', '--timeout', '0.5']);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(/^NETWORK: Gave up after \d+ attempts? in [\d.]+ s: an access token is asked for again for up to 1 s\. The last attempt: The connection to 127\.0\.0\.1:\d+ failed during the request: the connection closed before an answer came\./m);
      // The page's limit, not the 15 s a console's search allows when no --timeout is given.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      f.sandbox.setFaults({ dropRate: 0 });
    }
  }, 30_000);

  it('no answer in time: TIMEOUT, with the answer’s own limit', async () => {
    f.sandbox.setFaults({ latencyMs: 3_000 });
    try {
      const { code, stderr } = await f.cli(['users', 'find', 'marie', '--timeout', '0.4']);
      expect(code).toBe(1);
      expect(stderr).toMatch(/^TIMEOUT: Gave up after \d+ attempts? in [\d.]+ s: an access token is asked for again for up to 0\.8 s\. The last attempt: No answer from 127\.0\.0\.1:\d+ within 0\.\d+ s/m);
    } finally {
      f.sandbox.setFaults({ latencyMs: 0 });
    }
  }, 30_000);
});
