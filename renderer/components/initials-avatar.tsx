/** Initials instead of the user's image: no external images are ever loaded. */
export function initialsOf(name: string | null, fallback: string | null): string {
  const source = (name ?? '').trim() || (fallback ?? '').trim();
  if (!source) return '?';
  const words = source.split(/[\s@._-]+/u).filter(Boolean);
  const letters = words.length >= 2 ? [words[0], words[1]] : [source];
  return letters
    .map((word) => [...(word ?? '')][0] ?? '')
    .join('')
    .toUpperCase()
    .slice(0, 2);
}

const HUES = 8;

export function InitialsAvatar({ name, uid }: { name: string | null; uid: string | null }) {
  const initials = initialsOf(name, uid);
  let hash = 0;
  for (const char of `${uid ?? ''}${name ?? ''}`) hash = (hash * 31 + char.charCodeAt(0)) % 997;
  return (
    <span aria-hidden="true" className={`avatar avatar--${hash % HUES}`}>
      {initials}
    </span>
  );
}
