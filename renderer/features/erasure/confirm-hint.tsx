import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { InvisibleMark } from '../../../shared/invisible-characters';
import { invisibleDifferences, type InvisibleDifference } from './confirm-mismatch';

/** How the typed confirmation compares with the uid, in words; `nearMiss` ones are warnings with a sign. */
export function confirmHint(typed: string, uid: string, t: TFunction): { text: string; tone: 'neutral' | 'match' | 'near-miss' } {
  if (!typed) return { text: t('erasure.typeUidHint'), tone: 'neutral' };
  if (typed === uid) return { text: t('erasure.matches'), tone: 'match' };
  if (typed.trim() === uid.trim()) return { text: t('erasure.noMatchSpaces'), tone: 'near-miss' };
  const invisible = invisibleDifferences(typed, uid);
  if (invisible) {
    return { text: t('erasure.noMatchInvisible', { differences: invisible.map((d) => describe(d, t)).join(t('erasure.differenceSeparator')), copy: t('uid.copy') }), tone: 'near-miss' };
  }
  if (typed.toLocaleLowerCase() === uid.toLocaleLowerCase()) return { text: t('erasure.noMatchCase'), tone: 'near-miss' };
  return { text: t('erasure.noMatch'), tone: 'neutral' };
}

function named(mark: InvisibleMark, t: TFunction): string {
  return mark.name === 'other' ? t('erasure.charOther', { code: mark.code }) : t('erasure.charNamed', { name: t(`uid.marks.${mark.name}`), code: mark.code });
}

function describe(difference: InvisibleDifference, t: TFunction): string {
  switch (difference.kind) {
    case 'sign':
      return difference.stands.char === difference.uidChar.char
        ? t('erasure.difference.sign', { at: difference.at, sign: difference.sign, uidChar: named(difference.uidChar, t) })
        : t('erasure.difference.signOther', { at: difference.at, sign: difference.sign, stands: named(difference.stands, t), uidChar: named(difference.uidChar, t) });
    case 'replaced':
      return t('erasure.difference.replaced', { at: difference.at, typedChar: named(difference.typedChar, t), uidChar: named(difference.uidChar, t) });
    case 'extra':
      return difference.after === 0 ? t('erasure.difference.extraAtStart', { typedChar: named(difference.typedChar, t) }) : t('erasure.difference.extra', { after: difference.after, typedChar: named(difference.typedChar, t) });
    case 'missing':
      return t('erasure.difference.missing', { at: difference.at, uidChar: named(difference.uidChar, t) });
    default: {
      const unexpected: never = difference;
      throw new Error(`Unknown difference ${JSON.stringify(unexpected)}`);
    }
  }
}

/** The hint under the typed confirmation: a near miss is a warning with a mark, not just a colour. */
export function ConfirmHint({ typed, uid }: { typed: string; uid: string }) {
  const { t } = useTranslation();
  const hint = confirmHint(typed, uid, t);
  if (hint.tone === 'near-miss') {
    return (
      <span className="hint-warning">
        <span aria-hidden="true">⚠</span> <span>{hint.text}</span>
      </span>
    );
  }
  return <span className={hint.tone === 'match' ? 'text-success' : undefined}>{hint.text}</span>;
}
