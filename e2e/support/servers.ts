/**
 * The two Odontia servers the suite starts (see playwright.config.ts): one mounted at `/`, one
 * under a sub-path, to prove a single build works behind any BASE_PATH. `E2E_PORT` moves both
 * (the root server on it, the sub-path one on the next), so two checkouts can run side by side.
 */
const rootPort = Number(process.env.E2E_PORT ?? 4310);
const basePathPort = rootPort + 1;

export const rootServer = {
  port: rootPort,
  basePath: '/',
  origin: `http://127.0.0.1:${rootPort}`,
  url: (pathname = ''): string => `http://127.0.0.1:${rootPort}/${pathname.replace(/^\/+/, '')}`,
} as const;

export const basePathServer = {
  port: basePathPort,
  basePath: '/clinica/',
  origin: `http://127.0.0.1:${basePathPort}`,
  /** `url('patients')` → `http://127.0.0.1:4311/clinica/patients`. */
  url: (pathname = ''): string => `http://127.0.0.1:${basePathPort}/clinica/${pathname.replace(/^\/+/, '')}`,
} as const;

/**
 * The local ARCA (WSAA + WSFEv1, apps/api/src/dev/fake-arca.ts) the root server's homologation
 * environment talks to (issue 39): the e-invoicing spec asks it for a certificate its CA signed.
 */
export const fakeArca = {
  port: rootPort + 200,
  url: (pathname = ''): string => `http://127.0.0.1:${rootPort + 200}/${pathname.replace(/^\/+/, '')}`,
} as const;
