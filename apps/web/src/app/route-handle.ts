import { useMatches } from 'react-router';

/** `handle` of a route: the page title key in the `common` namespace (`pages.*`). */
export interface RouteHandle {
  titleKey?: string;
}

/** The title key of the deepest matched route that declares one. */
export function useRouteTitleKey(): string | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index--) {
    const handle = matches[index]?.handle as RouteHandle | undefined;
    if (handle?.titleKey) return handle.titleKey;
  }
  return undefined;
}
