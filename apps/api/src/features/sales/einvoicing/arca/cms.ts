import { createHash, verify as verifySignature } from 'node:crypto';
import forge from 'node-forge';

/**
 * CMS (PKCS#7 SignedData) as WSAA wants it: content attached, SHA-256, signer certificate
 * included. `readSignedCms` is the other side, used by the fake and the tests.
 */

export function signCms(content: string, certificatePem: string, privateKeyPem: string, now: Date): string {
  const certificate = forge.pki.certificateFromPem(certificatePem);
  const key = forge.pki.privateKeyFromPem(privateKeyPem);
  const signed = forge.pkcs7.createSignedData();
  signed.content = forge.util.createBuffer(content, 'utf8');
  signed.addCertificate(certificate);
  signed.addSigner({
    key,
    certificate,
    digestAlgorithm: forge.pki.oids.sha256 as string,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType as string, value: forge.pki.oids.data as string },
      { type: forge.pki.oids.messageDigest as string },
      // forge reads `value` as a Date for signingTime; its typings say string.
      { type: forge.pki.oids.signingTime as string, value: now as unknown as string },
    ],
  });
  signed.sign();
  return forge.util.encode64(forge.asn1.toDer(signed.toAsn1()).getBytes());
}

export interface SignedCms {
  content: string;
  /** The signer's certificate (the first one carried). */
  certificate: forge.pki.Certificate;
  signatureValid: boolean;
}

const MESSAGE_DIGEST_OID = '1.2.840.113549.1.9.4';
const DIGESTS: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** Parses a base64 SignedData and checks its signature; throws when it is no such structure. */
export function readSignedCms(base64: string): SignedCms {
  const der = forge.util.decode64(base64.replace(/\s+/g, ''));
  const contentInfo = forge.asn1.fromDer(der);
  const signedData = children(children(contentInfo)[1])[0];
  const parts = children(signedData);
  const encapsulated = children(parts[2]);
  const contentNode = encapsulated[1] ? children(encapsulated[1])[0] : undefined;
  if (!contentNode) throw new Error('CMS without attached content');
  const content = octets(contentNode);
  const certificates = parts.find((p) => p.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && p.type === 0);
  const firstCertificate = certificates ? children(certificates)[0] : undefined;
  if (!firstCertificate) throw new Error('CMS without certificate');
  const certificate = forge.pki.certificateFromAsn1(firstCertificate);
  const signerInfo = children(parts[parts.length - 1])[0];
  if (!signerInfo) throw new Error('CMS without signer');
  return {
    content: forge.util.decodeUtf8(content),
    certificate,
    signatureValid: signerVerifies(signerInfo, content, certificate),
  };
}

function signerVerifies(signerInfo: forge.asn1.Asn1, content: string, certificate: forge.pki.Certificate): boolean {
  const fields = children(signerInfo);
  const digestOid = forge.asn1.derToOid(octets(children(fields[2])[0]));
  const algorithm = DIGESTS[digestOid];
  if (!algorithm) return false;
  const attributes = fields[3]?.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC ? fields[3] : undefined;
  const signature = fields[attributes ? 5 : 4];
  if (!signature) return false;
  const publicKeyPem = forge.pki.publicKeyToPem(certificate.publicKey);
  let signedBytes = content;
  if (attributes) {
    const digest = children(attributes)
      .map((attribute) => children(attribute))
      .find(([oid]) => oid !== undefined && forge.asn1.derToOid(octets(oid)) === MESSAGE_DIGEST_OID);
    const expected = createHash(algorithm).update(Buffer.from(content, 'binary')).digest('binary');
    const carried = digest?.[1] ? octets(children(digest[1])[0]) : '';
    if (carried !== expected) return false;
    // The signature covers the attributes DER-encoded as a SET, not with their [0] tag.
    const asSet = forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, children(attributes));
    signedBytes = forge.asn1.toDer(asSet).getBytes();
  }
  try {
    return verifySignature(
      algorithm,
      Buffer.from(signedBytes, 'binary'),
      publicKeyPem,
      Buffer.from(octets(signature), 'binary'),
    );
  } catch {
    return false;
  }
}

function children(node: forge.asn1.Asn1 | undefined): forge.asn1.Asn1[] {
  if (!node || !Array.isArray(node.value)) throw new Error('CMS structure is not as expected');
  return node.value;
}

/** A primitive node's bytes; a constructed OCTET STRING's chunks joined. */
function octets(node: forge.asn1.Asn1 | undefined): string {
  if (!node) throw new Error('CMS structure is not as expected');
  if (typeof node.value === 'string') return node.value;
  return node.value.map((chunk) => octets(chunk)).join('');
}
