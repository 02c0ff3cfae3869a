import {
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { routerBasename } from '../lib/base-path';

/*
 * The portal's own small router: a handful of paths, the chosen steps in the query string. The
 * staff app's router would cost the patient's phone about a third of the portal's budget
 * (120 KB gzip, `npm run bench bundle`).
 */

interface Place {
  /** The path below the base path, starting with '/'. */
  path: string;
  query: URLSearchParams;
}

interface RouterValue extends Place {
  navigate: (to: string, options?: { replace?: boolean }) => void;
}

const RouterContext = createContext<RouterValue | null>(null);

function base(): string {
  const name = routerBasename();
  return name === '/' ? '' : name;
}

function currentPlace(): Place {
  const prefix = base();
  const pathname = window.location.pathname;
  const path = prefix && pathname.startsWith(prefix) ? pathname.slice(prefix.length) || '/' : pathname;
  return { path, query: new URLSearchParams(window.location.search) };
}

/** `to` (a portal path with its query) as the address bar shows it. */
export function href(to: string): string {
  return `${base()}${to}`;
}

export function PortalRouter({ children }: { children: ReactNode }) {
  const [place, setPlace] = useState<Place>(currentPlace);
  useEffect(() => {
    const onPop = () => setPlace(currentPlace());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  // Stable, so an effect may depend on it without running again on every navigation.
  const navigate = useCallback<RouterValue['navigate']>((to, options) => {
    if (options?.replace) window.history.replaceState(null, '', href(to));
    else window.history.pushState(null, '', href(to));
    setPlace(currentPlace());
    if (!options?.replace) window.scrollTo(0, 0);
  }, []);
  const value = useMemo<RouterValue>(() => ({ ...place, navigate }), [place, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('useRouter outside PortalRouter');
  return value;
}

/** `pattern` ('/c/:slug/book') against `path`: its parameters, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const wanted = pattern.split('/');
  const given = path.replace(/\/+$/, '').split('/');
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of wanted.entries()) {
    const value = given[index] ?? '';
    if (part.startsWith(':')) {
      if (!value) return null;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return null;
  }
  return params;
}

/** A link inside the portal: a real `<a href>` (new tab, copy link) that navigates in place. */
export function Link({
  to,
  className,
  children,
  testId,
}: {
  to: string;
  className?: string;
  children: ReactNode;
  testId?: string;
}) {
  const { navigate } = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={href(to)} className={className} onClick={onClick} data-testid={testId}>
      {children}
    </a>
  );
}
