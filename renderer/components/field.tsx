import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  error?: string;
  /** The hint reports a changing state (e.g. whether typed text matches): announce it politely. */
  liveHint?: boolean;
  /** Rendered instead of an <input> (e.g. a textarea or select); receives the wired ids. */
  render?: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** A labelled control with its hint and error wired through aria-describedby. */
export function Field({ label, hint, error, liveHint = false, render, className = '', ...inputProps }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {render ? (
        render({ id, describedBy, invalid: Boolean(error) })
      ) : (
        <input id={id} className="input" aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...inputProps} />
      )}
      {error && (
        <p id={errorId} className="field__error">
          <span aria-hidden="true">✗ </span>
          {error}
        </p>
      )}
      {hint && (
        <div id={hintId} className="field__hint" aria-live={liveHint ? 'polite' : undefined}>
          {hint}
        </div>
      )}
    </div>
  );
}
