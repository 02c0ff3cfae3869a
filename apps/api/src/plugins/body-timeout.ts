import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A request body that stops arriving closes its connection (issue 14). Without it a client that
 * sends half an upload and then nothing holds its socket, its handler and its partial file in
 * `uploads/.tmp` for ever (Fastify sets no request timeout by default).
 *
 * The socket's idle timer runs while the body is incomplete: no byte for `idleMs` and the
 * request is destroyed with `BodyIdleTimeout`, which reaches whoever reads the body (the JSON
 * parser, the multipart reader, that then removes what it stored). Once the body is complete, a
 * quiet socket is the server working (a long report, a PDF), not an idle client: the timer is
 * stopped then. Idle, not total: a big upload on a slow line is fine as long as bytes flow.
 */
export class BodyIdleTimeout extends Error {
  readonly statusCode = 408;
  readonly code = 'BODY_IDLE_TIMEOUT';

  constructor(seconds: number) {
    super(`no byte of the request body for ${seconds} s`);
    this.name = 'BodyIdleTimeout';
  }
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export const bodyIdleTimeout = fp(
  async (app: FastifyInstance, { idleMs }: { idleMs: number }) => {
    app.addHook('onRequest', async (request, reply) => {
      const { raw } = request;
      // app.inject has no real socket: nothing can stall there.
      if (!hasBody(raw.headers) || !(raw.socket instanceof Socket)) return;
      const socket = raw.socket;
      raw.setTimeout(idleMs);
      // Node emits 'timeout' on the request only while its body is incomplete.
      raw.on('timeout', () => {
        request.log.info({ idleSeconds: idleMs / 1000 }, 'request body idle: connection closed');
        raw.destroy(new BodyIdleTimeout(idleMs / 1000));
      });
      // With a listener here Node does not destroy the socket on a timeout after the body.
      reply.raw.on('timeout', () => {
        if (raw.complete) socket.setTimeout(0);
      });
    });
  },
  { name: 'body-idle-timeout' },
);
