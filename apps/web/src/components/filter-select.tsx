import { useId } from 'react';

/** A filter's options: "any" first (the empty value, no filter), then each value in its words. */
export function optionsWithAny(anyLabel: string, values: readonly string[], labelOf: (value: string) => string) {
  return [{ value: '', label: anyLabel }, ...values.map((value) => ({ value, label: labelOf(value) }))];
}

/** A list's small filter select; the label is for screen readers unless `visibleLabel`. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  visibleLabel = false,
  className = 'inventory-filter',
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
  visibleLabel?: boolean;
  className?: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={visibleLabel ? 'form-label small mb-1' : 'visually-hidden'}>
        {label}
      </label>
      <select
        id={id}
        className="form-select form-select-sm"
        value={value}
        data-testid={testId}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * One filter of a server-paginated list (lib/use-list-state.ts), labelled above its select: `all`
 * heads the options as the empty value; a list whose filter has a default (`shownWhenEmpty`) shows
 * it while the address holds none and stores it as none when chosen, so its address stays short.
 */
export function ListFilter<F extends string>({
  list,
  name,
  label,
  testId,
  all,
  shownWhenEmpty,
  options,
}: {
  list: { filters: Record<F, string>; setFilter: (name: F, value: string) => void };
  name: F;
  label: string;
  testId: string;
  all?: string;
  shownWhenEmpty?: string;
  options: { value: string; label: string }[];
}) {
  return (
    <FilterSelect
      label={label}
      visibleLabel
      className="list-filter"
      testId={testId}
      value={list.filters[name] || (shownWhenEmpty ?? '')}
      onChange={(value) => list.setFilter(name, value === shownWhenEmpty ? '' : value)}
      options={all === undefined ? options : [{ value: '', label: all }, ...options]}
    />
  );
}
