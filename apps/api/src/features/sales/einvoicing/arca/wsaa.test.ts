import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { readSignedCms } from './cms.ts';
import { arcaEndpoints, memoryTicketStore, signLoginRequest } from './wsaa.ts';

function selfSigned(cuit: string) {
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(pair.publicKey);
  certificate.serialNumber = '01';
  certificate.validity.notBefore = new Date(Date.now() - 86_400_000);
  certificate.validity.notAfter = new Date(Date.now() + 86_400_000);
  const subject = [
    { name: 'commonName', value: 'test' },
    { type: '2.5.4.5', value: `CUIT ${cuit}` },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(forge.pki.privateKeyFromPem(pair.privateKey), forge.md.sha256.create());
  return { cuit, certificatePem: forge.pki.certificateToPem(certificate), privateKeyPem: pair.privateKey };
}

describe('signLoginRequest', () => {
  const credentials = selfSigned('20123456786');
  const now = new Date('2025-03-14T12:00:00Z');

  it('is a SignedData with the TRA attached, SHA-256, the signer certificate, a valid signature', () => {
    const cms = signLoginRequest(credentials, 'wsfe', now);
    const message = forge.pkcs7.messageFromAsn1(
      forge.asn1.fromDer(forge.util.decode64(cms)),
    ) as forge.pkcs7.PkcsSignedData;
    expect(message.certificates[0]?.subject.getField({ type: '2.5.4.5' })?.value).toBe('CUIT 20123456786');
    const read = readSignedCms(cms);
    expect(read.signatureValid).toBe(true);
    expect(read.content).toContain('<service>wsfe</service>');
    expect(read.content).toContain('<generationTime>2025-03-14T11:50:00Z</generationTime>');
    expect(read.content).toContain('<expirationTime>2025-03-14T12:10:00Z</expirationTime>');
    expect(forge.pki.certificateToPem(read.certificate)).toBe(credentials.certificatePem);
    const der = forge.util.decode64(cms);
    const sha256 = forge.asn1.oidToDer(forge.pki.oids.sha256 as string).getBytes();
    const sha1 = forge.asn1.oidToDer(forge.pki.oids.sha1 as string).getBytes();
    expect(der.includes(sha256)).toBe(true);
    expect(der.includes(sha1)).toBe(false);
  });

  it('a CMS signed with another key does not verify', () => {
    const other = selfSigned('20123456786');
    const cms = signLoginRequest({ ...credentials, privateKeyPem: other.privateKeyPem }, 'wsfe', now);
    expect(readSignedCms(cms).signatureValid).toBe(false);
  });
});

describe('tickets and endpoints', () => {
  it('the memory store logs in once for concurrent refreshes and again after drop', async () => {
    const store = memoryTicketStore();
    let logins = 0;
    const login = async () => {
      logins += 1;
      return { token: `t${logins}`, sign: 's', expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
    };
    const [a, b] = await Promise.all([store.refresh(login), store.refresh(login)]);
    expect(a.token).toBe('t1');
    expect(b.token).toBe('t1');
    await store.drop();
    expect(await store.get()).toBeNull();
    expect((await store.refresh(login)).token).toBe('t2');
  });

  it('real URLs', () => {
    expect(arcaEndpoints('homologation')).toEqual({
      wsaaUrl: 'https://wsaahomo.afip.gov.ar/ws/services/LoginCms',
      wsfeUrl: 'https://wswhomo.afip.gov.ar/wsfev1/service.asmx',
    });
    expect(arcaEndpoints('production').wsfeUrl).toBe('https://servicios1.afip.gov.ar/wsfev1/service.asmx');
  });
});
