import { describe, expect, it } from 'vitest';
import { normalizedFormBaseUrl, validateProfileForm, type ProfileFormValues } from './profile-form-validation';

const valid: ProfileFormValues = { name: 'City portal', baseUrl: 'https://debate.example.org', applicationName: 'city-portal', apiKey: 'key', apiSecret: 'secret' };
const adding = { editing: false, hasCredentials: false };

describe('profile form base URL', () => {
  it.each([
    ['  ', 'baseUrlRequired'],
    ['debate.example.org', 'baseUrlInvalid'],
    ['ftp://debate.example.org', 'baseUrlInvalid'],
    ['http://debate.example.org', 'baseUrlHttps'],
    ['https://admin:pw@debate.example.org', 'baseUrlCredentials'],
    ['https://debate.example.org/#top', 'baseUrlExtra'],
  ])('words the shared rule’s refusal of %j as %s', (baseUrl, key) => {
    expect(validateProfileForm({ ...valid, baseUrl }, adding)).toEqual({ baseUrl: key });
  });

  it('accepts loopback http and stores the normalised address', () => {
    expect(validateProfileForm({ ...valid, baseUrl: 'http://127.0.0.1:4600/api/v1/' }, adding)).toEqual({});
    expect(normalizedFormBaseUrl(' http://127.0.0.1:4600/api/v1/ ')).toBe('http://127.0.0.1:4600');
  });
});
