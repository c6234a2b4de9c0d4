import { useId, type ReactNode } from 'react';

/** A titled card with a one-line hint under its title: the shape of the console's tool panels. */
export function CardSection({ title, hint, className, children }: { title: string; hint: string; className?: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={titleId}>
      <h3 id={titleId} className="card__title">
        {title}
      </h3>
      <p className="card__hint">{hint}</p>
      {children}
    </section>
  );
}
