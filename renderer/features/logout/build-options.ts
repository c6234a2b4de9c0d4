import { identityClaimsIn, type LogoutOptions } from '../../../shared/logout';
import type { LogoutDraft } from './logout-store';

export type DraftProblem =
  | { field: 'extraClaims'; key: 'extraClaimsInvalid' }
  | { field: 'extraClaims'; key: 'extraClaimsNotObject' }
  | { field: 'extraClaims'; key: 'extraClaimsIdentity'; detail: string }
  | { field: 'issuedAt'; key: 'issuedAtInvalid' }
  | { field: 'expiresIn'; key: 'expiresInInvalid' };

/**
 * Parses the claims editor into logout options, or lists what the operator must fix. For a live
 * service, claims a sign-on would read as identity are refused here too (the core refuses them anyway).
 */
export function buildLogoutOptions(draft: LogoutDraft, { live = false }: { live?: boolean } = {}): { options?: LogoutOptions; problems: DraftProblem[] } {
  const problems: DraftProblem[] = [];
  let extraClaims: Record<string, unknown> = {};
  const rawClaims = draft.extraClaims.trim();
  if (rawClaims) {
    try {
      const parsed: unknown = JSON.parse(rawClaims);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) extraClaims = parsed as Record<string, unknown>;
      else problems.push({ field: 'extraClaims', key: 'extraClaimsNotObject' });
      const identity = live ? identityClaimsIn(extraClaims) : [];
      if (identity.length > 0) problems.push({ field: 'extraClaims', key: 'extraClaimsIdentity', detail: identity.join(', ') });
    } catch {
      // The parser's own message is in the browser's language, not the window's: say what to check instead.
      problems.push({ field: 'extraClaims', key: 'extraClaimsInvalid' });
    }
  }
  const issuedAt = draft.issuedAt.trim();
  if (issuedAt && !/^\d{1,12}$/.test(issuedAt)) problems.push({ field: 'issuedAt', key: 'issuedAtInvalid' });
  const expiresIn = draft.expiresIn.trim();
  if (expiresIn && (!/^\d{1,9}$/.test(expiresIn) || Number(expiresIn) <= 0)) problems.push({ field: 'expiresIn', key: 'expiresInInvalid' });
  if (problems.length > 0) return { problems };

  const options: LogoutOptions = { algorithm: draft.algorithm, extraClaims, includeEvents: draft.includeEvents };
  if (draft.audience.trim()) options.audience = draft.audience.trim();
  if (issuedAt) options.issuedAt = Number(issuedAt);
  if (expiresIn) options.expiresInSeconds = Number(expiresIn);
  if (draft.jti.trim()) options.jti = draft.jti.trim();
  return { options, problems };
}
