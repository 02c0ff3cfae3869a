import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers. The CSP allows only the app's own origin: clinics run behind firewalls, so
 * nothing is fetched from a CDN. `data:`/`blob:` images are the app's own (Bootstrap's inline
 * SVG icons, previews of files being uploaded). No upgrade-insecure-requests: a clinic may
 * serve Odontia over plain http on its own network.
 */
export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
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
      // HSTS belongs to the TLS terminator in front of Odontia, not to a LAN install on http.
      strictTransportSecurity: false,
      crossOriginEmbedderPolicy: false,
    });
  },
  { name: 'security-headers' },
);
