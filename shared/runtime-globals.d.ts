/**
 * The globals shared/ may use that the browser and Node both have (ESLint's list for shared/), typed for
 * tsconfig.shared.json alone: it compiles shared/ with neither DOM nor Node types, so `document` or
 * `process` fails there. Only that config includes this file (the others get these from DOM or Node).
 * Add a member here only when both sides have it.
 */

interface URL {
  readonly hash: string;
  readonly host: string;
  readonly hostname: string;
  readonly href: string;
  readonly origin: string;
  readonly password: string;
  readonly pathname: string;
  readonly port: string;
  readonly protocol: string;
  readonly search: string;
  readonly username: string;
  toString(): string;
}
declare const URL: { prototype: URL; new (url: string, base?: string | URL): URL };

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare const TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
