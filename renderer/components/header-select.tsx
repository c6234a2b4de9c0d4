import { useId } from 'react';

export interface HeaderSelectOption<V extends string> {
  value: V;
  label: string;
  lang?: string;
}

/** A labelled select in the app header (active profile, language, theme). */
export function HeaderSelect<V extends string>(props: {
  label: string;
  value: V;
  options: ReadonlyArray<HeaderSelectOption<V>>;
  onChange: (value: V) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="header-control">
      <label htmlFor={id} className="header-control__label">
        {props.label}
      </label>
      <select id={id} className="select" value={props.value} disabled={props.disabled} onChange={(event) => props.onChange(event.target.value as V)}>
        {props.options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
