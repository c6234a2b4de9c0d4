import type { ReactNode } from 'react';

/** A main view: its heading, a one-line introduction, optional actions on the right, then its content. */
export function ViewSection({ id, title, intro, actions, children }: { id: string; title: string; intro: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const titleId = `${id}-title`;
  return (
    <section className="view" aria-labelledby={titleId}>
      <header className="view__header">
        <div>
          <h2 id={titleId}>{title}</h2>
          <p className="view__intro">{intro}</p>
        </div>
        {actions}
      </header>
      {children}
    </section>
  );
}
