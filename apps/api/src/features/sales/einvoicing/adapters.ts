import { adapterRegistry } from '../../../lib/adapter-registry.ts';

/**
 * Electronic invoicing (issue 18): the authority each country sends its invoices to (Spain's
 * Verifactu, Argentina's AFIP/ARCA, Brazil's NF-e, France's PDP) sits behind one small interface.
 * The adapter is chosen by `EINVOICE_ADAPTER` (default `local`). `submit` and `query` take the
 * same idempotency key (the document's id): a retry first asks whether the last try arrived.
 */

export interface EinvoiceDocument {
  id: string;
  documentType: string;
  pointOfService: string;
  documentNumber: string;
  date: string;
  currency: string;
  total: string;
  vatTotal: string;
  contentHash: string;
  issuer: { name: unknown; taxId: unknown };
  customer: { name: unknown; taxId: unknown };
}

export type EinvoiceAnswer =
  | { status: 'accepted'; authorizationCode: string; response?: Record<string, unknown> }
  | { status: 'rejected'; reason: string; response?: Record<string, unknown> };

export interface EinvoiceAdapter {
  readonly name: string;
  /** Sends the document; answers the authority's decision. Throws when the authority cannot be reached. */
  submit(document: EinvoiceDocument, idempotencyKey: string): Promise<EinvoiceAnswer>;
  /** What the authority knows of an earlier submission with this key (null: never arrived). */
  query(idempotencyKey: string): Promise<EinvoiceAnswer | null>;
}

/**
 * The local adapter: no authority; accepts at once with the code `LOCAL-` + the first 12 hex
 * digits of the content hash, and remembers it for `query` (the authority's own memory).
 */
export function localAdapter(): EinvoiceAdapter {
  const answered = new Map<string, EinvoiceAnswer>();
  return {
    name: 'local',
    async submit(document, idempotencyKey) {
      const answer: EinvoiceAnswer = {
        status: 'accepted',
        authorizationCode: `LOCAL-${document.contentHash.slice(0, 12).toUpperCase()}`,
        response: { adapter: 'local', number: `${document.pointOfService}-${document.documentNumber}` },
      };
      answered.set(idempotencyKey, answer);
      return answer;
    },
    async query(idempotencyKey) {
      return answered.get(idempotencyKey) ?? null;
    },
  };
}

const einvoicing = adapterRegistry<EinvoiceAdapter>('EINVOICE_ADAPTER', { local: localAdapter }, 'local');

/** The app's start names the adapter of its configuration (EINVOICE_ADAPTER); unknown names fail there. */
export const configureEinvoicing = (name: string): void => einvoicing.configure(name);

/** Tests put their own adapter (one that rejects, or fails once) under a name. */
export const registerEinvoiceAdapter = (adapter: EinvoiceAdapter): void => einvoicing.register(adapter);

/** The configured adapter, or the one named (a submission keeps the adapter it was queued with). */
export const einvoiceAdapter = (name?: string): EinvoiceAdapter => einvoicing.get(name);
