import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake service misbehaves on every route but the token route (which always works unless told). */
export type HostileMode = 'html' | 'invalid-json' | 'huge' | 'silent' | 'redirect' | 'redirect-token' | 'escapes' | 'deep-json';

/** JSON nested this deep parses, but anything that walks it recursively (JSON.stringify included) overflows the stack. */
export const HOSTILE_DEPTH = 20_000;
/** `[[[…]]]`, HOSTILE_DEPTH levels: small (40 KB), valid JSON. */
export const deepJson = (depth = HOSTILE_DEPTH): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export interface ReceivedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

export interface HostileServer {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export const HOSTILE_CREDENTIALS = {
  apiKey: 'hostile-key-0123456789',
  // Long enough for HS512 logout tokens; distinctive, so a leak is unmistakable.
  apiSecret: 'hostile-SECRET-do-not-send-elsewhere-0123456789abcdef0123456789abcdef0123',
};

/** The user fields an attacker controls, with what a terminal would obey. */
export const ESCAPE_USER = {
  uid: 'user-\u001b[2K\u001b[1A-fake',
  full_name: 'Mallory\u001b]0;pwned terminal title\u0007 \u202eevil\u202c',
  email: 'mallory@example.org\u009b31m\u007f',
  created_at: '2026-11-01T10:00:00Z',
  messages_count: 1,
  votes_count: 2,
};

const TEN_MB = 10 * 1024 * 1024;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

function listen(handler: (request: IncomingMessage, response: ServerResponse, body: string) => void): Promise<HostileServer> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      received.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body });
      handler(request, response, body);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        received,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Another origin that only records: nothing should ever reach it. */
export function startForeignServer(): Promise<HostileServer> {
  return listen((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
  });
}

/** A fake service on loopback that answers tokens properly and misbehaves everywhere else, as `mode()` says. */
export function startHostileService(mode: () => HostileMode, foreignUrl: string): Promise<HostileServer> {
  let issued = 0;
  return listen((request, response, body) => {
    const current = mode();
    const isToken = request.url === '/oauth/token';
    if (isToken && current !== 'redirect-token') {
      issued += 1;
      const scope = new URLSearchParams(body).get('scope') ?? 'public';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: `hostile-token-${issued}-abcdef`, token_type: 'Bearer', expires_in: 7200, scope, created_at: Math.floor(Date.now() / 1000) }));
      return;
    }
    switch (current) {
      case 'html':
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body><h1>Down for maintenance</h1></body></html>');
        return;
      case 'invalid-json':
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"users": [{"uid": "a"},');
        return;
      case 'huge': {
        // Chunked, no Content-Length: the client must stop reading by itself.
        response.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < TEN_MB && !response.destroyed) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          if (!response.destroyed) response.end();
        };
        pump();
        return;
      }
      case 'silent':
        return; // never answers; close() cuts the connection
      case 'redirect':
      case 'redirect-token':
        response.writeHead(307, { location: `${foreignUrl}/collect?from=${encodeURIComponent(request.url ?? '')}` }).end();
        return;
      case 'deep-json':
        // Every answer is a 200 whose JSON has the route's usual shape, with one member nested HOSTILE_DEPTH deep.
        if (request.url?.startsWith('/api/v1/users?')) {
          response.writeHead(200, { 'content-type': 'application/json', 'total-count': '1' }).end(`{"success":true,"data":[{"uid":"deep","full_name":"Deep","extra":${deepJson()}}]}`);
        } else {
          response.writeHead(200, { 'content-type': 'application/json' }).end(`{"success":true,"detail":${deepJson()}}`);
        }
        return;
      case 'escapes':
        if (request.url?.startsWith('/api/v1/users?')) {
          response.writeHead(200, { 'content-type': 'application/json', 'total-count': '1' }).end(JSON.stringify([ESCAPE_USER]));
        } else {
          response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'db \u001b[2K\u001b[1Afailed\u001b]0;owned\u0007' }));
        }
        return;
    }
  });
}
