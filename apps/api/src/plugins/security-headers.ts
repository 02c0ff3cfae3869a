import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Security headers. The CSP allows only the app's own origin: clinics run behind firewalls, so
 * nothing is fetched from a CDN. `data:`/`blob:` images are the app's own (Bootstrap's inline
 * SVG icons, previews of files being uploaded). No upgrade-insecure-requests: a clinic may
 * serve Odontia over plain http on its own network. HSTS belongs to the TLS terminator in front
 * of Odontia, not to a LAN install on http.
 */
const helmetOptions: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
  },
  strictTransportSecurity: false,
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet writes, computed once: they are the same on every answer (no nonces), and
 * `@fastify/helmet` rebuilt the whole policy on every request (issue 34: ~1.4 % of a patient
 * read's server CPU). helmet runs on a recording response; what it removes (`X-Powered-By`)
 * Fastify never sends.
 */
export function securityHeaderValues(): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
  };
  let failure: unknown;
  helmet(helmetOptions)({} as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    const values = securityHeaderValues();
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(values);
      done();
    });
  },
  { name: 'security-headers' },
);
