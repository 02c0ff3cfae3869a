import { useId } from 'react';
import { DateInput } from '../../components/date-input';

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A list's "from … to …" dates (sales, purchases, collections, payments): two date inputs whose
 * names are the list's filters (`from`/`to`, `dateFrom`/`dateTo`), each with its small label.
 */
export function DateRangeFilter<F extends string>({
  names,
  values,
  labels,
  onChange,
  inputClassName = 'form-control',
}: {
  names: readonly [from: F, to: F];
  values: readonly [from: string, to: string];
  labels: readonly [from: string, to: string];
  onChange: (name: F, value: string) => void;
  /** `form-control form-control-sm` where the list's other filters are small. */
  inputClassName?: string;
}) {
  const id = useId();
  const ends = [
    { end: 'from', name: names[0], value: values[0], label: labels[0] },
    { end: 'to', name: names[1], value: values[1], label: labels[1] },
  ];
  return ends.map(({ end, name, value, label }) => (
    <div key={end}>
      <label className="form-label small mb-1" htmlFor={`${id}-${end}`}>
        {label}
      </label>
      <DateInput
        id={`${id}-${end}`}
        name={name}
        className={inputClassName}
        value={value}
        // Only a whole day, or none, reaches the list: a date half typed is not a filter yet (nor a
        // URL to write on every key).
        onChange={(event) => {
          if (event.target.value === '' || isoDay.test(event.target.value)) onChange(name, event.target.value);
        }}
      />
    </div>
  ));
}
