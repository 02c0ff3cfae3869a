/**
 * Where the app is mounted. The server writes `<base href="BASE_PATH/">` into index.html, so the
 * document's base URI is the single source of truth for the router basename and the API base.
 */

/** `/clinica/` → `/clinica`; `/` stays `/` (react-router wants no trailing slash). */
export function basenameFromBaseUri(baseUri: string): string {
  const pathname = new URL(baseUri).pathname;
  if (pathname === '/' || pathname === '') return '/';
  return pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** `/` → `/api`; `/clinica/` → `/clinica/api`. */
export function apiBaseFromBaseUri(baseUri: string): string {
  return new URL('api', baseUri).pathname;
}

export function routerBasename(): string {
  return basenameFromBaseUri(document.baseURI);
}

export function apiBase(): string {
  const configured = import.meta.env.VITE_API_BASE as string | undefined;
  const base = configured && configured.length > 0 ? configured : apiBaseFromBaseUri(document.baseURI);
  return base.endsWith('/') ? base.slice(0, -1) : base;
}
