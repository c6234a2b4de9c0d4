import { invalidInput } from '../shared/errors';
import { msg } from '../shared/messages';
import { identityClaimsIn, logoutOptionsProblem, logoutOptionsSchema, WITHHELD_SIGNATURE, type BuiltLogoutToken, type LogoutOptions } from '../shared/logout';
import { isLocalBaseUrl, type Profile } from '../shared/profile';

/**
 * What of a logout token may leave the core. The service's JWT sign-on uses the same secret as
 * logout tokens, so a signed token for a live service would be a token-minting tool: for every
 * profile that is not on this computer, only the header and claims leave, never the signature.
 */
export function isLiveProfile(profile: Profile): boolean {
  return !isLocalBaseUrl(profile.baseUrl);
}

/** Checks the options before anything is built, signed, audited or sent; every problem is INVALID_INPUT, not-sent. */
export function checkLogoutOptions(profile: Profile, options: LogoutOptions | undefined): LogoutOptions {
  const parsed = logoutOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw invalidInput(msg('logoutOptions.invalid', { problem: logoutOptionsProblem(parsed.error) }));
  if (isLiveProfile(profile)) {
    const identity = identityClaimsIn(parsed.data.extraClaims);
    if (identity.length > 0) {
      throw invalidInput(msg('logoutOptions.identityClaims', { names: identity.map((name) => `“${name}”`).join(', '), profile: profile.name }));
    }
  }
  return options ?? {};
}

/** The token as it may be shown or returned for this profile: unchanged on loopback, signature withheld elsewhere. */
export function exposedToken<T extends BuiltLogoutToken>(profile: Profile, built: T): T {
  if (!isLiveProfile(profile)) return built;
  const [header = '', payload = ''] = built.token.split('.');
  return { ...built, token: `${header}.${payload}.${WITHHELD_SIGNATURE}`, signatureWithheld: true };
}
