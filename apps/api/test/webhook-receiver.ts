import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { freePort } from './free-port.ts';

/**
 * A webhook receiver for the tests (issue 42): a real HTTP server on a free loopback port that
 * keeps every request (headers and raw body) and answers from a script of statuses (then 200),
 * or holds the answer (`hang`) to make the sender time out.
 */

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** The next answers' statuses, in order; once used up, 200. */
  script: number[];
  /** Holds each answer this long (ms) before answering. */
  hang: number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const port = await freePort();
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received: [],
    script: [],
    hang: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = receiver.script.shift() ?? 200;
      const answer = () => {
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(status === 200 ? 'ok' : `failure ${status} ${'x'.repeat(2000)}`);
      };
      if (receiver.hang > 0) setTimeout(answer, receiver.hang).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return receiver;
}

/** What a receiver does with a request (docs/api.md "Webhooks"): true when signed with `secret`. */
export function verifySignature(secret: string, received: Received, toleranceSeconds = 300): boolean {
  const timestamp = String(received.headers['odontia-timestamp'] ?? '');
  const signature = String(received.headers['odontia-signature'] ?? '');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${received.body}`).digest('hex')}`;
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}
