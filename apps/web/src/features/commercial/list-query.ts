/**
 * A list's filters as its query: a blank filter ('' in the form's state) is no filter. The client
 * leaves blanks out of the URL anyway (api-route.ts `queryString`); this says so to the types, so
 * a filter's state ('issued' | '') meets the contract's ('issued' or left out) without a cast.
 */
export function withoutBlanks<T extends object>(filters: T): { [K in keyof T]?: Exclude<T[K], ''> } {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '')) as {
    [K in keyof T]?: Exclude<T[K], ''>;
  };
}
