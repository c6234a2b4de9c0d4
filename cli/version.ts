import { readFileSync } from 'node:fs';

// Replaced by package.json's version when scripts/build-cli.mjs bundles the CLI.
declare const PRIVACY_DESK_VERSION: string | undefined;

/** The version `--version` prints: injected at build time; read from package.json when run from source. */
export function cliVersion(): string {
  if (typeof PRIVACY_DESK_VERSION === 'string') return PRIVACY_DESK_VERSION;
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
