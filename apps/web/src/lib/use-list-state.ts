import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigation, useSearchParams } from 'react-router';
import { UrlEcho } from './url-echo';
import { useDebouncedValue } from './use-debounced-value';

/*
 * The state of a server-paginated list (search, filters, sort, page) lives in the URL's search
 * parameters, so Back from a record and a reload show the same page of the same search. Every
 * change replaces the history entry: Back leaves the list, it does not step through its pages.
 * Two lists on one screen pass a `prefix` so their parameters do not collide.
 */

export interface ListStateOptions<F extends string> {
  /** The sort when the URL has none (`column` or `-column`); '' = the server's order. */
  sort?: string;
  /** Filter parameters this list reads (each a string; '' = not filtered). */
  filters?: readonly F[];
  /** Prefix of every parameter (`changes` → `changesPage`), for a second list on the screen. */
  prefix?: string;
  /** Milliseconds the search waits for the typing to stop. */
  debounceMs?: number;
}

export interface ListState<F extends string> {
  /** What the search box shows (follows every key). */
  searchText: string;
  setSearchText: (text: string) => void;
  /** The search the query uses (debounced, trimmed). */
  search: string;
  page: number;
  setPage: (page: number) => void;
  sort: string;
  setSort: (sort: string) => void;
  filters: Record<F, string>;
  setFilter: (name: F, value: string) => void;
}

export function useListState<F extends string = never>({
  sort: defaultSort = '',
  filters: filterNames = [],
  prefix = '',
  debounceMs = 300,
}: ListStateOptions<F> = {}): ListState<F> {
  const [params, setParams] = useSearchParams();
  // While another screen is loading, a late write (the debounced search) would cancel its navigation.
  const navigating = useRef(false);
  navigating.current = useNavigation().state !== 'idle';
  const key = useCallback(
    (name: string) => (prefix ? `${prefix}${name[0]?.toUpperCase()}${name.slice(1)}` : name),
    [prefix],
  );
  const urlSearch = params.get(key('q')) ?? '';
  const [searchText, setSearchText] = useState(urlSearch);
  const debounced = useDebouncedValue(searchText.trim(), debounceMs);
  // The searches this box wrote that the URL has not shown yet (see url-echo.ts).
  const echo = useRef(new UrlEcho());

  /**
   * Writes parameters (empty = removed); any change but the page's goes back to page 1. It starts
   * from the address bar, not from the last render: a filter changed while the search's debounce
   * runs must not be lost by the search's write, nor the other way round.
   */
  const write = useCallback(
    (changes: Record<string, string>) => {
      if (navigating.current) return;
      const current = new URLSearchParams(window.location.search);
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) {
        if (value) next.set(key(name), value);
        else next.delete(key(name));
      }
      if (!('page' in changes)) next.delete(key('page'));
      if (next.toString() === current.toString()) return;
      const q = next.get(key('q')) ?? '';
      if (q !== (current.get(key('q')) ?? '')) echo.current.sent(q.trim());
      setParams(next, { replace: true, preventScrollReset: true });
    },
    [setParams, key],
  );

  // The typed search reaches the URL once the typing stops (only a new typed value: a search the
  // URL brought back must not be overwritten by the box's older one). `write` compares it with the
  // address bar, not with this render's URL, which may still be an older write's.
  const typed = useRef(debounced);
  useEffect(() => {
    if (debounced === typed.current) return;
    typed.current = debounced;
    write({ q: debounced });
  }, [debounced, write]);
  // Back, forward or a link changed the URL's search: the box follows it. The URL's answer to the
  // box's own write does not: it may come back renders later, when the user has typed more, and
  // writing it into the box would drop those letters (issue 34: "gonzalez" typed as "gnae").
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the URL moves the box
  useEffect(() => {
    if (echo.current.isEcho(urlSearch.trim())) return;
    if (urlSearch.trim() === searchText.trim()) return;
    typed.current = urlSearch.trim();
    setSearchText(urlSearch);
  }, [urlSearch]);

  const rawPage = Number(params.get(key('page')));
  const page = Number.isInteger(rawPage) && rawPage > 1 ? rawPage : 1;
  const filterValues = filterNames.map((name) => params.get(key(name)) ?? '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the values, not the array, change
  const filters = useMemo(
    () => Object.fromEntries(filterNames.map((name, index) => [name, filterValues[index] ?? ''])) as Record<F, string>,
    [filterValues.join('\u0000')],
  );
  return {
    searchText,
    setSearchText,
    search: urlSearch.trim(),
    page,
    setPage: useCallback((next: number) => write({ page: next > 1 ? String(next) : '' }), [write]),
    sort: params.get(key('sort')) ?? defaultSort,
    setSort: useCallback((next: string) => write({ sort: next === defaultSort ? '' : next }), [write, defaultSort]),
    filters,
    setFilter: useCallback((name: F, value: string) => write({ [name]: value }), [write]),
  };
}

/** The list's page as a table's pagination takes it (its label and the rest beside it). */
export function pagesOf(list: { page: number; setPage: (page: number) => void }, pageSize: number) {
  return { page: list.page, pageSize, onPage: list.setPage };
}
