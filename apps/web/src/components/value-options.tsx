/** A select's options for a fixed list of values (an enum), each shown by `label` (its translation). */
export function ValueOptions<V extends string>({
  values,
  label,
}: {
  values: readonly V[];
  label: (value: V) => string;
}) {
  return values.map((value) => (
    <option key={value} value={value}>
      {label(value)}
    </option>
  ));
}
