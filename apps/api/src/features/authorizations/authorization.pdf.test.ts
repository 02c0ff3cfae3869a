import { describe, expect, it } from 'vitest';
import { expectContent } from '../../../test/pdf-text.ts';
import { authorizationDocument, type PrintedSignature } from './authorization.pdf.ts';

const signature = (overrides: Partial<PrintedSignature> = {}): PrintedSignature => ({
  signerName: 'Mónica Ibáñez',
  signerIdNumber: '28.111.222',
  signedAt: '10/03/2026, 10:15:00 GMT-3',
  collectedByName: 'Dra. Laura Gómez',
  sha256: 'a'.repeat(64),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  revoked: null,
  ...overrides,
});

const base = {
  language: 'es' as const,
  clinicName: 'Clínica Dental Sonrisa',
  clinicContact: '+54 11 4321-5678',
  patientName: 'Mónica Ibáñez',
  patientSsn: '28.111.222',
  date: '10/03/2026',
  professionalName: 'Dra. Laura Gómez',
  title: 'Consentimiento informado para extracción dentaria',
  text: 'Yo, Mónica Ibáñez, autorizo…',
};

describe('authorization document', () => {
  it('an unsigned one says so and has no signature', () => {
    const text = JSON.stringify(authorizationDocument({ ...base, signature: null, earlier: [] }).content);
    expect(text).toContain('SIN FIRMAR');
    expect(text).toContain('Clínica Dental Sonrisa');
    expect(text).toContain('Yo, Mónica Ibáñez, autorizo…');
    expect(text).not.toContain('data:image/png');
  });

  it('a signed one shows the image, signer, ID, time, collector and the SHA-256 (also in the metadata)', () => {
    const document = authorizationDocument({ ...base, signature: signature(), earlier: [] });
    const text = expectContent(document, [
      'data:image/png;base64,iVBORw',
      'Firmado por',
      '28.111.222',
      '10/03/2026, 10:15:00',
      'Dra. Laura Gómez',
      'a'.repeat(64),
    ]);
    expect(text).not.toContain('SIN FIRMAR');
    expect(JSON.stringify(document.info)).toContain(`SHA-256 ${'a'.repeat(64)}`);
  });

  it('a revoked signature says so, with when, who and why', () => {
    const revoked = signature({
      revoked: { at: '11/03/2026, 09:00:00', byName: 'Martín Sosa', reason: 'Cambió el plan' },
    });
    const text = JSON.stringify(authorizationDocument({ ...base, signature: null, earlier: [revoked] }).content);
    // Not a draft never signed (issue 34): the revoked banner, with the revocation.
    expect(text).not.toContain('SIN FIRMAR');
    expect(text).toContain('REVOCADA — la firma ya no vale como consentimiento');
    expect(text).toContain('FIRMA REVOCADA — 11/03/2026, 09:00:00 (Martín Sosa)');
    expect(text).toContain('Motivo: Cambió el plan');
    expect(text).toContain('Firmas anteriores revocadas');
  });
});
