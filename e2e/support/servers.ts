/**
 * The two Odontia servers the suite starts (see playwright.config.ts): one mounted at `/`, one
 * under a sub-path, to prove a single build works behind any BASE_PATH.
 */
export const rootServer = {
  port: 4310,
  basePath: '/',
  origin: 'http://127.0.0.1:4310',
  url: (pathname = ''): string => `http://127.0.0.1:4310/${pathname.replace(/^\/+/, '')}`,
} as const;

export const basePathServer = {
  port: 4311,
  basePath: '/clinica/',
  origin: 'http://127.0.0.1:4311',
  /** `url('patients')` → `http://127.0.0.1:4311/clinica/patients`. */
  url: (pathname = ''): string => `http://127.0.0.1:4311/clinica/${pathname.replace(/^\/+/, '')}`,
} as const;
