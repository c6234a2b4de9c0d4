import { describe, expect, it } from 'vitest';
import { createI18n } from './index';

/** A count and its verb agree, in each language: the batch check's sentence has two counts, each part its own. */
describe('the batch check says how many uids exist, each part agreeing with its count', () => {
  const sentence = (language: 'en' | 'fr', existing: number, total: number) => {
    const { t } = createI18n(language);
    const missing = total - existing;
    return `${t('batch.check.someExist', { count: existing, existing, total })} ${t('batch.check.someAbsent', { count: missing, missing })}`;
  };

  it('in French', () => {
    expect(sentence('fr', 1, 4)).toBe('1 uid sur 4 existe sur le service\u00a0; 3 n’existent pas.');
    expect(sentence('fr', 3, 4)).toBe('3 uid sur 4 existent sur le service\u00a0; 1 n’existe pas.');
  });

  it('in English', () => {
    expect(sentence('en', 1, 4)).toBe('1 of 4 uids exists on the service; 3 do not.');
    expect(sentence('en', 3, 4)).toBe('3 of 4 uids exist on the service; 1 does not.');
  });
});
