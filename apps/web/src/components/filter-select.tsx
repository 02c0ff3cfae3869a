import { useId } from 'react';

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
