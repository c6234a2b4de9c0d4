import { needsCredentialsAgain } from '../../../shared/credential-origin';
import { baseUrlProblem, checkBaseUrl, type BaseUrlProblemCode } from '../../../shared/profile';

export interface ProfileFormValues {
  name: string;
  baseUrl: string;
  applicationName: string;
  apiKey: string;
  apiSecret: string;
}

export type ProfileFormErrorKey =
  | 'nameRequired'
  | 'baseUrlRequired'
  | 'baseUrlInvalid'
  | 'baseUrlHttps'
  | 'baseUrlCredentials'
  | 'baseUrlExtra'
  | 'applicationNameRequired'
  | 'apiKeyRequired'
  | 'apiSecretRequired'
  | 'apiKeyNewAddress'
  | 'apiSecretNewAddress';

export type ProfileFormErrors = Partial<Record<keyof ProfileFormValues, ProfileFormErrorKey>>;

/** The shared rule decides; this only picks the form's translated wording for each problem code. */
const BASE_URL_ERROR_KEYS = {
  required: 'baseUrlRequired',
  'not-a-url': 'baseUrlInvalid',
  scheme: 'baseUrlInvalid',
  'https-required': 'baseUrlHttps',
  'credentials-in-url': 'baseUrlCredentials',
  'query-or-fragment': 'baseUrlExtra',
} as const satisfies Record<BaseUrlProblemCode, ProfileFormErrorKey>;

function baseUrlErrorKey(input: string): ProfileFormErrorKey | undefined {
  const problem = baseUrlProblem(input);
  return problem ? BASE_URL_ERROR_KEYS[problem.code] : undefined;
}

/** The address as the profile stores it. Should it still be invalid, it goes as typed and the core says why. */
export function normalizedFormBaseUrl(input: string): string {
  const checked = checkBaseUrl(input);
  return checked.ok ? checked.baseUrl : input.trim();
}

export interface ProfileFormContext {
  editing: boolean;
  hasCredentials: boolean;
  /** The address the stored key and secret were entered for (the profile's address when the form opened). */
  storedBaseUrl?: string;
}

/** True when the edited address is on another origin than the stored credentials: they must be entered again. */
export function credentialsNeededAgain(values: ProfileFormValues, context: ProfileFormContext): boolean {
  return context.editing && context.hasCredentials && context.storedBaseUrl !== undefined && needsCredentialsAgain(context.storedBaseUrl, values.baseUrl);
}

/**
 * On add, both keys are required. On edit, an empty key field means "keep
 * the stored one" — unless nothing is stored (e.g. session credentials lost on restart),
 * or the address moves to another origin (stored credentials are never sent elsewhere).
 */
export function validateProfileForm(values: ProfileFormValues, context: ProfileFormContext): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  const urlError = baseUrlErrorKey(values.baseUrl);
  if (urlError) errors.baseUrl = urlError;
  if (!values.applicationName.trim()) errors.applicationName = 'applicationNameRequired';
  const moved = credentialsNeededAgain(values, context);
  const keysRequired = !context.editing || !context.hasCredentials || moved;
  if (keysRequired && !values.apiKey.trim()) errors.apiKey = moved ? 'apiKeyNewAddress' : 'apiKeyRequired';
  if (keysRequired && !values.apiSecret) errors.apiSecret = moved ? 'apiSecretNewAddress' : 'apiSecretRequired';
  return errors;
}
