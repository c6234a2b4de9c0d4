import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { hasInvisible, uidParts, type InvisibleMark } from '../../shared/invisible-characters';

const MARK_ATTRIBUTE = 'data-uid-char';
const BOX_ATTRIBUTE = 'data-uid-box';
/** On an element whose marks copy as the characters they stand for (copyRealUid). */
export const UID_BOX_PROPS = { [BOX_ATTRIBUTE]: '' };

/**
 * A uid exactly as it is, in monospace, with every invisible character drawn as a mark: a space as
 * a faint ␣, a no-break space as NBSP, a zero-width space as ZWSP, a bidi override as RLO… so
 * " alice", "alice" and "alice\u00A0" cannot be confused. Each mark has its accessible name, so a
 * screen reader says "space" where the mark is. Copying gives the real uid, never the marks.
 * `inline` is for table cells and lists (no box around it).
 */
export function VisibleUid({ uid, className = '', inline = false }: { uid: string; className?: string; inline?: boolean }) {
  useUidCopy();
  const base = inline ? 'uid-inline' : 'uid-box';
  return (
    <span className={`${base} ${className}`.trim()} {...UID_BOX_PROPS}>
      {uidParts(uid).map((part, index) => (part.kind === 'text' ? <span key={index}>{part.text}</span> : <UidMark key={index} mark={part} />))}
    </span>
  );
}

/** One invisible character drawn as its mark, with its accessible name; copied as the character itself. */
export function UidMark({ mark }: { mark: InvisibleMark }) {
  const { t } = useTranslation();
  const name = mark.name === 'other' ? t('uid.marks.other', { code: mark.code }) : `${t(`uid.marks.${mark.name}`)} (${mark.code})`;
  return (
    <span role="img" aria-label={name} title={name} className={`uid-mark ${mark.char === ' ' ? 'uid-mark--space' : 'uid-mark--label'}`} {...{ [MARK_ATTRIBUTE]: mark.char }}>
      {mark.label}
    </span>
  );
}

/** The spoken and written warnings that go with a uid whose spaces or invisible characters matter. */
export function UidHints({ uid }: { uid: string }) {
  const { t } = useTranslation();
  const hints: string[] = [];
  if (uid.includes(' ')) hints.push(t('uid.containsSpaces'));
  if (uid !== uid.trim()) hints.push(t('uid.edgeSpaces'));
  if (hasInvisible(uid.replace(/ /g, ''))) hints.push(t('uid.containsInvisible'));
  hints.push(t('uid.length', { count: [...uid].length }));
  return <p className="uid-hints">{hints.join(' · ')}</p>;
}

let copyListeners = 0;

/** One document listener while any uid is on screen: a copy of a selection inside a uid gives its real characters. */
export function useUidCopy() {
  useEffect(() => {
    if (copyListeners++ === 0) document.addEventListener('copy', copyRealUid);
    return () => {
      if (--copyListeners === 0) document.removeEventListener('copy', copyRealUid);
    };
  }, []);
}

/**
 * When the selection lies inside one uid, the clipboard gets the selected characters themselves:
 * a mark (␣, NBSP…) gives the character it stands for. A wider selection is left to the browser.
 */
export function copyRealUid(event: ClipboardEvent): void {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed || !event.clipboardData) return;
  const range = selection.getRangeAt(0);
  const common = range.commonAncestorContainer;
  const element = common instanceof Element ? common : common.parentElement;
  if (!element?.closest(`[${BOX_ATTRIBUTE}]`)) return;
  // Inside a single mark (its label partly selected): the character it stands for.
  const mark = element.closest(`[${MARK_ATTRIBUTE}]`);
  let text: string;
  if (mark) {
    text = mark.getAttribute(MARK_ATTRIBUTE) ?? '';
  } else {
    const fragment = range.cloneContents();
    for (const drawn of fragment.querySelectorAll(`[${MARK_ATTRIBUTE}]`)) drawn.replaceWith(document.createTextNode(drawn.getAttribute(MARK_ATTRIBUTE) ?? ''));
    text = fragment.textContent ?? '';
  }
  event.clipboardData.setData('text/plain', text);
  event.preventDefault();
}
