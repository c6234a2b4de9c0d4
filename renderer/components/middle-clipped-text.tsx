/**
 * A value that may not fit its cell (a ticket reference): when it is too long, the middle gives way and
 * both ends stay in view — "REQ-2026-…0118-A", never "REQ-2026-DPO-…" — so two values that differ only
 * near their end never look the same. The start shrinks first, down to a few characters; then the end
 * loses its own start. Assistive technology reads the whole value once.
 */
const TAIL_LENGTH = 12;

export function MiddleClippedText({ text }: { text: string }) {
  const characters = Array.from(text);
  if (characters.length <= 8) return <>{text}</>;
  // The end (where references numbered in sequence differ) is kept whole up to a dozen characters.
  const half = Math.max(characters.length - TAIL_LENGTH, Math.ceil(characters.length / 2));
  return (
    <span className="middle-clip">
      <span className="visually-hidden">{text}</span>
      <span className="middle-clip__head" aria-hidden="true">
        {characters.slice(0, half).join('')}
      </span>
      <span className="middle-clip__tail" aria-hidden="true">
        <span className="middle-clip__tail-text">{characters.slice(half).join('')}</span>
      </span>
    </span>
  );
}
