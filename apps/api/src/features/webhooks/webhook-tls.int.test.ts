import { generateKeyPairSync, randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsStub, preparedDelivery } from '../../../test/webhook-delivery.ts';
import { postWebhook } from './webhook.job.ts';

/**
 * The pinned connection over real TLS (issue 42): the webhook's host is resolved once and the
 * socket goes to that address, yet TLS still speaks to the hostname: SNI carries it and the
 * receiver's certificate is checked against it (and against the trusted authorities), never
 * against the address. A receiver on 127.0.0.1 with a certificate its own CA signed for
 * hooks.clinic.test, reached through a DNS stub.
 */

const day = 86_400_000;

function keys() {
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(pair.publicKey),
    privateKey: forge.pki.privateKeyFromPem(pair.privateKey),
    privateKeyPem: pair.privateKey,
  };
}

function certificate(subject: string, issuer: { name: string; key: forge.pki.PrivateKey } | null, dnsName?: string) {
  const own = keys();
  const cert = forge.pki.createCertificate();
  cert.publicKey = own.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - day);
  cert.validity.notAfter = new Date(Date.now() + 30 * day);
  cert.setSubject([{ name: 'commonName', value: subject }]);
  cert.setIssuer([{ name: 'commonName', value: issuer?.name ?? subject }]);
  cert.setExtensions(
    dnsName
      ? [{ name: 'subjectAltName', altNames: [{ type: 2, value: dnsName }] }]
      : [
          { name: 'basicConstraints', cA: true },
          { name: 'keyUsage', keyCertSign: true },
        ],
  );
  cert.sign((issuer?.key ?? own.privateKey) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { pem: forge.pki.certificateToPem(cert), keyPem: own.privateKeyPem, key: own.privateKey };
}

describe('webhook delivery over TLS, pinned to the checked address', () => {
  const authority = certificate('Odontia test CA', null);
  const served = certificate('hooks.clinic.test', { name: 'Odontia test CA', key: authority.key }, 'hooks.clinic.test');
  const hits: { servername: string | false | null | undefined; host: string | undefined; body: string }[] = [];
  let server: https.Server;
  let port = 0;

  beforeAll(async () => {
    server = https.createServer({ key: served.keyPem, cert: served.pem }, (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      request.on('end', () => {
        hits.push({ servername: (request.socket as TLSSocket).servername, host: request.headers.host, body });
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('received');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers to the hostname’s certificate: SNI and Host carry the name, the socket the checked address', async () => {
    hits.length = 0;
    const resolve = dnsStub(['127.0.0.1']);
    const outcome = await postWebhook(preparedDelivery(`https://hooks.clinic.test:${port}/odontia`), {
      allowPrivate: true,
      timeoutMs: 3000,
      resolve,
      ca: authority.pem,
    });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true, statusCode: 200, excerpt: 'received' });
    expect(resolve.calls).toBe(1);
    expect(hits).toEqual([{ servername: 'hooks.clinic.test', host: `hooks.clinic.test:${port}`, body: '{"id":"e1"}' }]);
  });

  it('refuses a certificate for another name, though the address is the same', async () => {
    hits.length = 0;
    const outcome = await postWebhook(preparedDelivery(`https://other.clinic.test:${port}/odontia`), {
      allowPrivate: true,
      timeoutMs: 3000,
      resolve: dnsStub(['127.0.0.1']),
      ca: authority.pem,
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/other\.clinic\.test/);
    expect(outcome.error).toMatch(/altnames|Hostname/i);
    expect(hits).toHaveLength(0);
  });

  it('refuses a certificate no trusted authority signed (Node’s own list, as in the app)', async () => {
    hits.length = 0;
    const outcome = await postWebhook(preparedDelivery(`https://hooks.clinic.test:${port}/odontia`), {
      allowPrivate: true,
      timeoutMs: 3000,
      resolve: dnsStub(['127.0.0.1']),
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/certificate/i);
    expect(hits).toHaveLength(0);
  });
});
