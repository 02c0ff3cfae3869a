import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsStub, preparedDelivery } from '../../../test/webhook-delivery.ts';
import { postWebhook } from './webhook.job.ts';

/**
 * DNS rebinding (issue 42): the webhook's host is resolved ONCE; the POST connects to exactly
 * the address that was checked, whatever the name answers afterwards. Two real receivers on the
 * same port of 127.0.0.1 and 127.0.0.2 (both loopback on Linux) tell which one the socket reached.
 */

interface Hit {
  host: string | undefined;
  body: string;
}

async function listen(address: string, port: number, hits: Hit[]): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      hits.push({ host: request.headers.host, body });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`ok from ${address}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return server;
}

describe('webhook delivery pins the checked address (DNS rebinding)', () => {
  const first: Hit[] = [];
  const second: Hit[] = [];
  let servers: http.Server[] = [];
  let port = 0;

  beforeAll(async () => {
    const a = await listen('127.0.0.1', 0, first);
    port = (a.address() as AddressInfo).port;
    servers = [a, await listen('127.0.0.2', port, second)];
  });

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('connects to the first answer only, with the hostname as Host, even when DNS then answers another address', async () => {
    first.length = 0;
    second.length = 0;
    // Private hosts allowed here (both receivers are loopback, plain http to a *.localhost name): the
    // point is where the socket goes.
    const resolve = dnsStub(['127.0.0.1', '127.0.0.2']);
    const outcome = await postWebhook(preparedDelivery(`http://rebind.localhost:${port}/hooks`), {
      allowPrivate: true,
      timeoutMs: 2000,
      resolve,
    });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true, statusCode: 200, excerpt: 'ok from 127.0.0.1' });
    expect(resolve.calls).toBe(1);
    expect(first).toEqual([{ host: `rebind.localhost:${port}`, body: '{"id":"e1"}' }]);
    expect(second).toHaveLength(0);
  });

  it('never reaches the loopback address a rebinding DNS answers after a public one', async () => {
    first.length = 0;
    // https to a public address (TEST-NET-3, nothing listens), then 127.0.0.1 on the second call.
    const resolve = dnsStub(['203.0.113.7', '127.0.0.1']);
    const outcome = await postWebhook(preparedDelivery(`https://rebind.example:${port}/hooks`), {
      allowPrivate: false,
      timeoutMs: 500,
      resolve,
    });
    expect(outcome.ok).toBe(false);
    expect(resolve.calls).toBe(1);
    expect(first).toHaveLength(0);
  });

  it('refuses before connecting when any answer is private', async () => {
    first.length = 0;
    for (const address of ['127.0.0.1', '::ffff:10.0.0.1', '169.254.169.254', 'fd00::1', '0.0.0.0', '::']) {
      const resolve = dnsStub([address]);
      const outcome = await postWebhook(preparedDelivery(`https://rebind.example:${port}/hooks`), {
        allowPrivate: false,
        timeoutMs: 500,
        resolve,
      });
      expect(outcome.error, address).toBe('refused: rebind.example resolves to a private address');
      expect(resolve.calls).toBe(1);
    }
    expect(first).toHaveLength(0);
  });
});
