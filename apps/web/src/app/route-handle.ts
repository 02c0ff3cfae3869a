import { useMatches } from 'react-router';

/** `handle` of a route: the page title key in the `common` namespace (`pages.*`). */
export interface RouteHandle {
  titleKey?: string;
  /** Plain layout: a wider card (long forms, the terms of use). */
  wideCard?: boolean;
}

/** True when the deepest matched route asks the plain layout for a wide card. */
export function useWideAuthCard(): boolean {
  const matches = useMatches();
  return Boolean((matches.at(-1)?.handle as RouteHandle | undefined)?.wideCard);
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
