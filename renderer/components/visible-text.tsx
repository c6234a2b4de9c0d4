import { uidParts, type UidPart } from '../../shared/invisible-characters';
import { UID_BOX_PROPS, UidMark, useUidCopy } from './visible-uid';

/**
 * How service text is read: a name keeps its plain spaces as spaces; an e-mail (or any value that must be read
 * exactly) draws every space as ␣ too, since none belongs there.
 */
export type VisibleTextKind = 'name' | 'exact';

/** The text cut into plain runs and marks: what a reader cannot see, or what would reorder the text, is a mark. */
export function visibleTextParts(text: string, kind: VisibleTextKind = 'name'): UidPart[] {
  const parts: UidPart[] = [];
  for (const part of uidParts(text)) {
    const plain = part.kind === 'text' ? part.text : kind === 'name' && part.char === ' ' ? ' ' : undefined;
    const last = parts[parts.length - 1];
    if (plain === undefined) parts.push(part);
    else if (last?.kind === 'text') last.text += plain;
    else parts.push({ kind: 'text', text: plain });
  }
  return parts;
}

/** The text as one plain line with its marks written out (⟨RLO⟩, ⟨ZWSP⟩): for titles, tooltips and accessible names. */
export function visibleTextLine(text: string, kind: VisibleTextKind = 'name'): string {
  return visibleTextParts(text, kind)
    .map((part) => (part.kind === 'text' ? part.text : part.char === ' ' ? '␣' : `⟨${part.label}⟩`))
    .join('');
}

/** The runs and marks of a piece of text, without a wrapper (for a part of a highlighted field). */
export function TextWithMarks({ text, kind = 'name' }: { text: string; kind?: VisibleTextKind }) {
  return (
    <>
      {visibleTextParts(text, kind).map((part, index) => (part.kind === 'text' ? <span key={index}>{part.text}</span> : <UidMark key={index} mark={part} />))}
    </>
  );
}

/**
 * A name, an e-mail or another value the service sent, which may be hostile: inside <bdi>, so right-to-left
 * text cannot reorder what is around it, and with every bidi control, zero-width or control character drawn as
 * a mark (RLO, ZWSP…), never obeyed, as uids are (VisibleUid). "a\u200Bb@example.org" reads aZWSPb@example.org,
 * not as the clean ab@example.org. Copying gives the real characters.
 */
export function VisibleText({ text, kind = 'name', className = '' }: { text: string; kind?: VisibleTextKind; className?: string }) {
  useUidCopy();
  return (
    <bdi className={`visible-text ${className}`.trim()} {...UID_BOX_PROPS}>
      <TextWithMarks text={text} kind={kind} />
    </bdi>
  );
}
