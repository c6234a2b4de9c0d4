import { message, param } from '../message-text';

/** Logout tokens: what the verifier finds wrong with one, and why options for building one are refused. */
export const TOKEN_MESSAGES = {
  // core/service/logout-token.ts verifyLogoutToken: every reason the service would refuse a token.
  'verify.partCount': message('The token is malformed: a JWT has three parts separated by dots (header.claims.signature); this one has {{parts}}. Paste the whole token.', { parts: param.count }),
  'verify.headerNotJson': message('The token is malformed: its header (first part) is not base64url-encoded JSON, or is nested too deeply to read.'),
  'verify.claimsNotJson': message('The token is malformed: its claims (second part) are not base64url-encoded JSON, or are nested too deeply to read.'),
  'verify.noAlg': message('The header has no “alg”: the service cannot tell how the token is signed.'),
  'verify.unsigned': message('The token is not signed (alg “none”): the service refuses unsigned tokens. Sign it with the secret key (HS256).'),
  'verify.algNotAccepted': message('The algorithm “{{alg}}” is not accepted: sign with the secret key using HS256 (or HS384 / HS512).', { alg: param.text }),
  'verify.signatureMismatch': message('The signature does not match: the token was signed with a different secret than this profile’s secret key, or it was changed after signing.'),
  'verify.signatureUnreadable': message('The token is malformed: its signature part could not be read.'),
  'verify.noSub': message('There is no “sub” claim: the service needs the user’s uid there to know whose sessions to end.'),
  'verify.subNotString': message('The “sub” claim must be the user’s uid as a non-empty string.'),
  'verify.expNotNumber': message('The “exp” claim is not a number of seconds: the service cannot read when the token expires.'),
  'verify.expired': message('The token expired at {{at}} ({{ago}} ago).', { at: param.text, ago: param.phrase }),
  'verify.iatNotNumber': message('The “iat” claim is not a number of seconds.'),
  'verify.issuedInFuture': message('The token is issued in the future ({{at}}, {{ahead}} ahead). Check this computer’s clock.', { at: param.text, ahead: param.phrase }),
  'verify.notYetValid': message('The token is not valid before {{at}}.', { at: param.text }),
  'verify.wrongAudience': message('The audience “{{audience}}” is neither the application name “{{application}}” nor this profile’s API key.', { audience: param.text, application: param.text }),

  // shared/logout.ts extraClaimsProblem: extra claims too many, too big or too deep.
  'claims.tooMany': message('at most {{max}} extra claims (there are {{count}})', { max: param.count, count: param.count }),
  'claims.nameLength': message('a claim name is 1 to {{max}} characters', { max: param.count }),
  'claims.reservedName': message('“{{name}}” cannot be a claim name', { name: param.text }),
  'claims.tooManyValues': message('the extra claims hold more than {{max}} values', { max: param.count }),
  'claims.tooDeep': message('a claim is nested more than {{max}} levels deep', { max: param.count }),
  'claims.notPlainJson': message('the extra claims must be plain JSON values'),
  'claims.tooBig': message('the extra claims are {{bytes}} bytes as JSON; at most {{max}}', { bytes: param.count, max: param.count }),
  'claims.notObject': message('the extra claims must be a JSON object'),

  // The other options of a logout token (shared/logout.ts logoutOptionsSchema), by field.
  'option.audience': message('the audience (aud) is 1 to {{max}} characters', { max: param.count }),
  'option.algorithm': message('the algorithm is HS256, HS384 or HS512'),
  'option.issuedAt': message('iat is whole seconds from 0 to {{max}}', { max: param.count }),
  'option.expiresIn': message('the lifetime is whole seconds from 1 to {{max}}', { max: param.count }),
  'option.jti': message('the token id (jti) is 1 to {{max}} characters', { max: param.count }),
  'option.events': message('the events claim is asked for with true or false'),
  'option.negativeCase': message('the negative case is one of wrong-secret, alg-none, expired, missing-sub and wrong-aud'),
  'option.other': message('the options are not a set Privacy Desk knows'),

  // core/service/logout-token.ts, core/logout-exposure.ts: options refused before a token is built.
  'logoutOptions.invalid': message('The logout token options are not valid: {{problem}}. Correct them and try again. Nothing was sent.', { problem: param.phrase }),
  'logoutOptions.subInClaims': message('Extra claims cannot set “sub”: the subject is always the uid you entered. Remove “sub” from the extra claims.'),
  'logoutOptions.identityClaims': message('Extra claims {{names}} would make the token read as a sign-on identity: they are refused for “{{profile}}”, a live service. Remove them, or test them against the sandbox. Nothing was sent.', { names: param.text, profile: param.text }),
} as const;
