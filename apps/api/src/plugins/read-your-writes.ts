import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Read-your-writes with a read replica (issue 20). After a write (any method but GET/HEAD/OPTIONS
 * that did not fail), the answer carries the primary's WAL position — header `X-Odontia-LSN` and a
 * short-lived cookie `odontia_lsn` the browser sends back by itself. A replica read
 * (`replica: true` routes) first checks that the replica has replayed that position, else reads the
 * primary: a client always sees what it just wrote, whichever instance answers (the position
 * travels with the client, nothing is kept in an instance's memory). Without a replica nothing is
 * added.
 */
export const readYourWrites = fp(
  async (app: FastifyInstance, { basePath }: { basePath: string }) => {
    const currentLsn = app.db.currentLsn;
    if (!currentLsn) return;
    app.addHook('onSend', async (request, reply, payload) => {
      if (readMethods.has(request.method) || reply.statusCode >= 400) return payload;
      try {
        const lsn = await currentLsn();
        reply.header('x-odontia-lsn', lsn);
        reply.header(
          'set-cookie',
          `${cookieName}=${lsn}; Path=${basePath}; Max-Age=${cookieSeconds}; HttpOnly; SameSite=Strict`,
        );
      } catch (error) {
        // The write committed; without the position the next read may see the replica's older state.
        request.log.warn({ err: error }, 'read-your-writes: the primary did not say its WAL position');
      }
      return payload;
    });
  },
  { name: 'read-your-writes' },
);

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);
const cookieName = 'odontia_lsn';
/** Far above any lag a healthy replica has: past it the replica has replayed the write anyway. */
const cookieSeconds = 60;
const lsnPattern = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;

/** The client's last write's WAL position (header, else cookie), when well formed. */
export function lastWriteOf(request: FastifyRequest): string | undefined {
  const header = request.headers['x-odontia-lsn'];
  if (typeof header === 'string' && lsnPattern.test(header)) return header;
  const cookies = request.headers.cookie ?? '';
  for (const part of cookies.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === cookieName && value && lsnPattern.test(value)) return value;
  }
  return undefined;
}
