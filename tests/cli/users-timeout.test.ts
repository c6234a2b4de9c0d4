import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

describe('privacy-desk users list --all --timeout', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(30);
  });
  afterAll(() => f.close());

  it('gives a failing page up after twice --timeout, as a single page is, not after two minutes', async () => {
    f.sandbox.setFaults({ errorRate: 1 });
    try {
      const before = f.sandbox.stats().apiRequests;
      const { code, stderr } = await f.cli(['users', 'list', '--all', '--per-page', '10', '--timeout', '0.5']);
      expect(code).toBe(1);
      // What happened (the service kept failing), and the limit it gave up at.
      expect(stderr).toMatch(/^SERVER_ERROR: Gave up after \d+ attempts? in [\d.]+ s: an access token is asked for again for up to 1 s\. The last attempt: The service failed \(5\d\d\)/m);
      // A few attempts within the second it was given (two minutes would have taken dozens, and the test's time).
      expect(f.sandbox.stats().apiRequests - before).toBeLessThanOrEqual(12);
    } finally {
      f.sandbox.setFaults({ errorRate: 0 });
    }
  }, 20_000);
});
