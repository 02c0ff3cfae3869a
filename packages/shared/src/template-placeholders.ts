/** A placeholder in a template's text: `{{ name }}`, spaces allowed. */
export const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Replaces every placeholder of `names` by its value; any other stays as written. */
export function fillTemplate<const TName extends string>(
  text: string,
  names: readonly TName[],
  values: Record<TName, string>,
): string {
  const known = new Set<string>(names);
  return text.replace(placeholderPattern, (whole, name: string) => (known.has(name) ? values[name as TName] : whole));
}
