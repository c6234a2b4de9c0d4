import { isLocalBaseUrl } from '../shared/profile';
import type { CliOutput } from './output';

/** The host as an operator knows it; the address itself when it does not parse. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * Said on stderr before an irreversible act against a service off this computer,
 * so the operator sees which real service is about to change (stdout stays the result).
 */
export function noteLiveData(out: Pick<CliOutput, 'note'>, baseUrl: string): void {
  if (!isLocalBaseUrl(baseUrl)) out.note(`LIVE DATA: ${hostOf(baseUrl)}`);
}
