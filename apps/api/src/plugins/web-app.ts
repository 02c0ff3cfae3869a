import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export interface WebAppOptions {
  /** Where the app is mounted, with a trailing slash: `/` or `/clinica/`. */
  basePath: string;
  /** The built web app (`apps/web/dist`). */
  distDir: string;
}

/**
 * Answers the page of a client-side route (the patient portal's for `/c/…` and `/portal…`, the
 * staff app's for any other), or false when no web app is built.
 */
export type SpaFallback = (reply: FastifyReply, pathname: string) => FastifyReply | false;

/**
 * The patient portal's paths below the base path (issue 37): the clinic's public pages (`c/…`),
 * the patient's (`portal…`), and the pages of its mails' links (`p/<clinic>/link/…` signs in,
 * `booking/confirm/…` confirms a public booking).
 */
const portalPath = /^(?:c|portal|p|booking)(?:\/|$)/;

/**
 * Serves the built web app under the base path. The build is base-independent (`base: './'`);
 * the page's `<base href>` is set here, so the same build works under any BASE_PATH and the
 * router takes its basename from it. Hashed assets are cached for a year, the page never.
 *
 * The build holds a brotli and a gzip copy of each text file (`<file>.br`, `<file>.gz`, written by
 * apps/web/precompress.ts): a request gets the best one its Accept-Encoding takes, else the file
 * itself, and every answer says `Vary: Accept-Encoding` so a shared cache keeps them apart.
 */
export const webApp = fp(
  async (app: FastifyInstance, options: WebAppOptions) => {
    const indexFile = path.join(options.distDir, 'index.html');
    if (!existsSync(indexFile)) {
      app.log.warn({ distDir: options.distDir }, 'web app not built: only the API is served (run npm run build)');
      app.decorate('spaFallback', (() => false) satisfies SpaFallback);
      return;
    }
    const page = (file: string) =>
      readFileSync(file, 'utf8').replace(/<base href="[^"]*"\s*\/?>/, `<base href="${options.basePath}" />`);
    const indexHtml = page(indexFile);
    // The portal's own page and entry (apps/web/portal.html): a patient never loads the staff app.
    const portalFile = path.join(options.distDir, 'portal.html');
    const portalHtml = existsSync(portalFile) ? page(portalFile) : indexHtml;

    await app.register(fastifyStatic, {
      root: options.distDir,
      prefix: options.basePath,
      index: false,
      cacheControl: false,
      wildcard: true,
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });

    const sendHtml = (reply: FastifyReply, html: string) =>
      reply.status(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
    const sendPage: SpaFallback = (reply, pathname) => {
      const below = pathname.startsWith(options.basePath) ? pathname.slice(options.basePath.length) : pathname;
      return sendHtml(reply, portalPath.test(below) ? portalHtml : indexHtml);
    };
    app.decorate('spaFallback', sendPage);

    // With ignoreTrailingSlash this also answers the bare `/clinica`; <base href> keeps it working.
    app.get(options.basePath, (_request, reply) => sendHtml(reply, indexHtml));
    if (options.basePath !== '/') app.get('/', (_request, reply) => reply.redirect(options.basePath));
  },
  { name: 'web-app' },
);

declare module 'fastify' {
  interface FastifyInstance {
    spaFallback: SpaFallback;
  }
}
