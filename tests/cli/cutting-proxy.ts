import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CuttingProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A proxy in front of the sandbox that passes every request on, but for the ones `cut`
 * picks it lets the service answer and then cuts the client's connection: the service
 * acted, and the client never hears how it ended.
 */
export async function startCuttingProxy(target: string, cut: (request: IncomingMessage) => boolean): Promise<CuttingProxy> {
  const server = createServer((incoming, outgoing) => {
    const upstream = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers }, (answer) => {
      if (!cut(incoming)) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      answer.resume();
      answer.on('end', () => incoming.socket.destroy());
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
