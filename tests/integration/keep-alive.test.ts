import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectToService } from '../../core/service/service-client';

/** A bare service that counts the TCP connections its clients open. */
async function countingService(): Promise<{ server: Server; url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.setHeader('Content-Type', 'application/json');
      if (request.url === '/oauth/token') return response.end(JSON.stringify({ access_token: 'keep-alive-test-token', token_type: 'Bearer', expires_in: 7200, scope: 'authentication' }));
      response.end(JSON.stringify({ success: true }));
    });
  });
  server.on('connection', () => void (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe('keep-alive', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it.each(['delete', 'anonymize'] as const)('20 %s requests one after another reuse their connection', async (action) => {
    const service = await countingService();
    server = service.server;
    const { acts } = connectToService({
      profile: { id: 'p', name: 'P', baseUrl: service.url, applicationName: 'app' },
      credentials: { apiKey: 'key', apiSecret: 'secret' },
    });
    for (let i = 0; i < 20; i++) await acts.erase(action, `user-${i}`);
    // The token request and the erasures share one or two connections, never one each.
    expect(service.connections()).toBeLessThanOrEqual(2);
  });
});
