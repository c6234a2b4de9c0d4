import { isLoopbackHost } from '../../../shared/profile';

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
  | 'apiSecretRequired';

export type ProfileFormErrors = Partial<Record<keyof ProfileFormValues, ProfileFormErrorKey>>;

/** The same rules as shared normalizeBaseUrl, as message keys the form can translate. */
export function baseUrlProblem(input: string): ProfileFormErrorKey | undefined {
  const trimmed = input.trim();
  if (!trimmed) return 'baseUrlRequired';
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'baseUrlInvalid';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'baseUrlInvalid';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'baseUrlHttps';
  if (url.username || url.password) return 'baseUrlCredentials';
  if (url.search || url.hash) return 'baseUrlExtra';
  return undefined;
}

/**
 * On add, both keys are required. On edit, an empty key field means "keep
 * the stored one" — unless nothing is stored (e.g. session credentials lost on restart).
 */
export function validateProfileForm(values: ProfileFormValues, context: { editing: boolean; hasCredentials: boolean }): ProfileFormErrors {
  const errors: ProfileFormErrors = {};
  if (!values.name.trim()) errors.name = 'nameRequired';
  const urlProblem = baseUrlProblem(values.baseUrl);
  if (urlProblem) errors.baseUrl = urlProblem;
  if (!values.applicationName.trim()) errors.applicationName = 'applicationNameRequired';
  const keysRequired = !context.editing || !context.hasCredentials;
  if (keysRequired && !values.apiKey.trim()) errors.apiKey = 'apiKeyRequired';
  if (keysRequired && !values.apiSecret) errors.apiSecret = 'apiSecretRequired';
  return errors;
}
