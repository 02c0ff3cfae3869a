import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * API answers carry health data: no browser, proxy or shared computer may keep a copy
 * (`Cache-Control: no-store`, issue 14). A route that chose its own caching keeps it: stored
 * files and thumbnails are `private, max-age=3600` (files.routes.ts), the web app's assets are
 * not under the API.
 */
export const apiNoStore = fp<{ apiPrefix: string }>(
  async (app: FastifyInstance, { apiPrefix }) => {
    app.addHook('onSend', async (request, reply) => {
      const pathname = request.url.split('?')[0] ?? '';
      const isApi = pathname === apiPrefix || pathname.startsWith(`${apiPrefix}/`);
      if (isApi && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'api-no-store' },
);
