import forge from 'node-forge';
import { AppError } from '../../lib/app-error.ts';

/**
 * A clinic's e-invoicing certificate as uploaded (issue 39): ARCA gives a certificate (.crt, PEM)
 * for the key the clinic generated; Spain's certificates come as PKCS#12 (.p12/.pfx) with a
 * password. Either way we keep the certificate and its key as PEM (sealed at rest) and what the
 * certificate says, and refuse what could not sign: unreadable, wrong password, a key of another
 * certificate, out of its validity, or a certificate of another CUIT/NIF than the clinic's.
 */

export interface ClinicCertificate {
  certificatePem: string;
  privateKeyPem: string;
  info: {
    subject: string;
    issuer: string;
    serialNumber: string;
    taxId: string | null;
    notBefore: string;
    notAfter: string;
  };
}

type Reason = 'unreadable' | 'password' | 'key_mismatch' | 'expired' | 'not_yet_valid' | 'tax_id_mismatch';
const invalid = (reason: Reason) => new AppError('einvoice_certificate_invalid', { reason });

const distinguishedName = (attributes: forge.pki.CertificateField[]) =>
  attributes.map((field) => `${field.shortName ?? field.name ?? field.type}=${String(field.value)}`).join(', ');

/**
 * The tax id a certificate names: ARCA's carry "CUIT 20123456789" in the subject's serialNumber;
 * Spain's "IDCES-12345678Z" (a person) or an organizationIdentifier "VATES-B12345678".
 */
export function certificateTaxId(certificate: forge.pki.Certificate): string | null {
  for (const field of certificate.subject.attributes) {
    const value = String(field.value ?? '').trim();
    const named = field.name ?? field.shortName ?? field.type;
    if (named !== 'serialNumber' && field.type !== '2.5.4.97' && field.type !== '2.5.4.5') continue;
    const match = /^(?:CUIT\s*|IDCES-|VATES-|IDC[A-Z]{2}-)?([0-9A-Z]{8,11})$/i.exec(value);
    if (match?.[1]) return match[1].toUpperCase();
  }
  return null;
}

function fromPem(certificatePem: string, privateKeyPem: string) {
  try {
    return {
      certificate: forge.pki.certificateFromPem(certificatePem),
      key: forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey,
    };
  } catch {
    throw invalid('unreadable');
  }
}

function fromPkcs12(base64: string, password: string) {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const der = forge.util.decode64(base64.replace(/\s+/g, ''));
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(der), password);
  } catch (error) {
    throw invalid(/password|MAC/i.test(String((error as Error).message)) ? 'password' : 'unreadable');
  }
  const bags = (type: string) => p12.getBags({ bagType: type })[type] ?? [];
  const keyBag = bags(forge.pki.oids.pkcs8ShroudedKeyBag as string)[0] ?? bags(forge.pki.oids.keyBag as string)[0];
  const certificates = bags(forge.pki.oids.certBag as string)
    .map((bag: forge.pkcs12.Bag) => bag.cert)
    .filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const key = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key || certificates.length === 0) throw invalid('unreadable');
  // The file may carry the issuer's chain too: the certificate is the one of the key.
  const certificate = certificates.find((cert) => matches(cert, key)) ?? certificates[0];
  return { certificate: certificate as forge.pki.Certificate, key };
}

function matches(certificate: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey): boolean {
  const publicKey = certificate.publicKey as forge.pki.rsa.PublicKey;
  return Boolean(publicKey.n && key.n && publicKey.n.equals(key.n) && publicKey.e.equals(key.e));
}

/** Reads and checks an upload; `clinicTaxId` is the clinic's CUIT/NIF without separators. */
export function readCertificate(
  upload: {
    certificatePem?: string | null;
    privateKeyPem?: string | null;
    pkcs12?: string | null;
    password?: string | null;
  },
  clinicTaxId: string | null,
  now = new Date(),
): ClinicCertificate {
  const { certificate, key } = upload.pkcs12
    ? fromPkcs12(upload.pkcs12, upload.password ?? '')
    : fromPem(upload.certificatePem ?? '', upload.privateKeyPem ?? '');
  if (!matches(certificate, key)) throw invalid('key_mismatch');
  if (certificate.validity.notAfter < now) throw invalid('expired');
  if (certificate.validity.notBefore > now) throw invalid('not_yet_valid');
  const taxId = certificateTaxId(certificate);
  const normalized = clinicTaxId?.replace(/[^0-9A-Z]/gi, '').toUpperCase() ?? null;
  if (taxId && normalized && taxId !== normalized) throw invalid('tax_id_mismatch');
  return {
    certificatePem: forge.pki.certificateToPem(certificate),
    privateKeyPem: forge.pki.privateKeyToPem(key),
    info: {
      subject: distinguishedName(certificate.subject.attributes),
      issuer: distinguishedName(certificate.issuer.attributes),
      serialNumber: certificate.serialNumber,
      taxId,
      notBefore: certificate.validity.notBefore.toISOString(),
      notAfter: certificate.validity.notAfter.toISOString(),
    },
  };
}
