import { type Language, languages } from '@odontia/shared/enums';
import type {
  RemoteSignRequest,
  SigningLink,
  SigningRequest,
  SigningRequestStatus,
} from '@odontia/shared/schemas/signing-requests';
import type { RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { clinicBrand } from '../../db/clinic-brand.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import type { Mailer } from '../../lib/mail.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { findAuthorization } from '../authorizations/authorizations.repository.ts';
import { authorizationsService, signedTextOf } from '../authorizations/authorizations.service.ts';
import { requirePatient } from '../clinical/clinical.service.ts';
import { budgetsService, budgetToSign } from '../sales/budgets.service.ts';
import * as repository from '../signing-requests/signing-requests.repository.ts';
import { signingMail } from './signing.mail.ts';

/**
 * Remote signing (issue 37; docs/decisions.md "Remote signing (issue 37)"). Staff send a consent or
 * a budget to the patient: a request with a one-time token (only its hash is kept), valid for
 * `validDays`, mailed as a link in the patient's language. The patient's page shows the text a
 * signature seals — the same text the chair shows — and the signature goes through the chair's own
 * service function (authorizationsService.sign, budgetsService.decide): the same hash, the same
 * audit event, which then adds `remote: true`, the request, the signer's address and time. The
 * signature is collected in the name of who sent the request (the chair's "collected by").
 *
 * A link of no clinic answers 404 signing_link_not_found; a used, expired or cancelled one 409
 * signing_link_stale (details.why); a document signed at the chair, answered or voided since, 409
 * signing_document_closed (details.why) — also once the chair's signature has closed the request
 * (closed-at-the-chair.ts).
 */

export const validDays = 7;
const dayMs = 24 * 60 * 60 * 1000;

/** The document a request is about: a consent of a patient, or a budget. */
export type SigningDocument = { kind: 'authorization'; patientId: string; id: string } | { kind: 'budget'; id: string };

type Why = 'signed' | 'answered' | 'voided';

interface Loaded {
  patientId: string;
  language: Language;
  /** The text a signature seals now. */
  text: string;
  /** Why it can no longer be signed; null while it can. */
  closed: Why | null;
}

const languageOf = (value: string): Language => (languages.includes(value as Language) ? (value as Language) : 'es');

/** The document as it stands (404 when it is not the clinic's). */
async function load(ctx: RequestContext, document: SigningDocument): Promise<Loaded> {
  if (document.kind === 'authorization') {
    await requirePatient(ctx, document.patientId);
    const row = await findAuthorization(ctx, document.patientId, document.id);
    if (!row) throw new AppError('authorization_not_found');
    const contact = await repository.patientContact(ctx, document.patientId);
    return {
      patientId: document.patientId,
      language: languageOf(contact?.language ?? 'es'),
      text: signedTextOf(row),
      closed: row.status === 'signed' ? 'signed' : null,
    };
  }
  const { document: budget, decision, text, language } = await budgetToSign(ctx, document.id);
  if (!budget.patientId) throw new AppError('patient_without_email');
  return {
    patientId: budget.patientId,
    language: languageOf(language),
    text,
    closed: decision ? (decision.signedText ? 'signed' : 'answered') : budget.status !== 'issued' ? 'voided' : null,
  };
}

/** A link's document that can still be signed; signed, answered, voided or deleted since: 409 signing_document_closed. */
async function loadOpen(ctx: RequestContext, document: SigningDocument): Promise<Loaded> {
  let loaded: Loaded;
  try {
    loaded = await load(ctx, document);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) {
      throw new AppError('signing_document_closed', { why: 'voided' }, { cause: error });
    }
    throw error;
  }
  if (loaded.closed) throw new AppError('signing_document_closed', { why: loaded.closed });
  return loaded;
}

/** The chair's refusal of a document that cannot be signed now. */
function refuseClosed(document: SigningDocument, loaded: Loaded): void {
  if (!loaded.closed) return;
  if (document.kind === 'authorization') throw new AppError('error_sign_authorization');
  if (loaded.closed === 'voided') throw new AppError('budget_not_issued');
  throw new AppError('budget_already_decided');
}

const statusOf = (row: repository.SigningRequestRow, now: Date): SigningRequestStatus =>
  row.status === 'pending' && row.expiresAt.getTime() <= now.getTime() ? 'expired' : row.status;

function present(row: repository.SigningRequestWithSender, now: Date): SigningRequest {
  return {
    id: row.id,
    kind: row.kind,
    status: statusOf(row, now),
    sentTo: row.sentTo,
    sentAt: row.sentAt.toISOString(),
    sentByName: row.sentByName,
    language: languageOf(row.language),
    expiresAt: row.expiresAt.toISOString(),
    signedAt: row.signedAt?.toISOString() ?? null,
    signerIp: row.signerIp,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
  };
}

const documentIds = (document: SigningDocument) =>
  document.kind === 'authorization'
    ? { authorizationId: document.id, saleId: null }
    : { authorizationId: null, saleId: document.id };

const auditRequest = recordAudit('signing_request');

export function createSigningRequestsService(deps: { db: Database; mailer: Mailer; publicUrl: string }) {
  const { db, mailer, publicUrl } = deps;

  /** Mails a fresh link; a failure answers error_sending_email and the transaction stores nothing. */
  async function mail(ctx: RequestContext, loaded: Loaded, expiresAt: Date, token: string): Promise<string> {
    const contact = await repository.patientContact(ctx, loaded.patientId);
    const to = contact?.email?.trim();
    if (!contact || !to) throw new AppError('patient_without_email');
    try {
      await mailer.send(
        signingMail({
          language: loaded.language,
          to,
          firstName: contact.firstName,
          sex: contact.sex,
          clinicName: contact.clinicName,
          clinicColor: contact.brandColor,
          title: loaded.text.split('\n')[0] ?? '',
          expiresAt,
          timeZone: contact.timeZone,
          link: `${publicUrl}sign/${token}`,
        }),
      );
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('error_sending_email', undefined, { cause: error });
    }
    return to;
  }

  /**
   * The link's request, locked, in its clinic's transaction: the token's hash finds the clinic in
   * the system context (the one look-up across clinics); 404 when it is no clinic's.
   */
  async function withLink<T>(
    token: string,
    work: (scope: { tx: TenantTx; accountId: string }, request: repository.SigningRequestRow) => Promise<T>,
  ): Promise<T> {
    const found = await repository.findByToken(db, token);
    if (!found) throw new AppError('signing_link_not_found');
    return db.withTenant(found.accountId, async (tx) => {
      const scope = { tx, accountId: found.accountId };
      const request = await repository.lockRequest(scope, found.id);
      if (!request) throw new AppError('signing_link_not_found');
      return work(scope, request);
    });
  }

  async function latest(ctx: RequestContext, document: SigningDocument, now: Date) {
    const row = await repository.latestOf(ctx, document.kind, document.id);
    return row ? present(row, now) : null;
  }

  return {
    /** The document's newest request (null when never sent). */
    async show({ ctx, document }: { ctx: RequestContext; document: SigningDocument }) {
      await load(ctx, document);
      return { data: await latest(ctx, document, new Date()) };
    },

    /** A new request, mailed; 409 signing_request_pending while one is pending. */
    async send({ ctx, document, now = new Date() }: { ctx: RequestContext; document: SigningDocument; now?: Date }) {
      const loaded = await load(ctx, document);
      refuseClosed(document, loaded);
      await repository.closeExpired(ctx, document.kind, document.id, now);
      if (await repository.pendingOf(ctx, document.kind, document.id)) throw new AppError('signing_request_pending');
      const token = newToken();
      const id = newId();
      const expiresAt = new Date(now.getTime() + validDays * dayMs);
      const to = await mail(ctx, loaded, expiresAt, token);
      try {
        await repository.insertRequest(ctx, {
          id,
          kind: document.kind,
          ...documentIds(document),
          patientId: loaded.patientId,
          language: loaded.language,
          sentTo: to,
          tokenHash: hashToken(token),
          status: 'pending',
          expiresAt,
          sentAt: now,
          sentBy: ctx.userId,
        });
      } catch (error) {
        // Two sends at once: the partial unique index lets one stand.
        if (isUniqueViolation(error)) throw new AppError('signing_request_pending', undefined, { cause: error });
        throw error;
      }
      await auditRequest(ctx, id, 'sent', {
        patientId: loaded.patientId,
        after: { kind: document.kind, documentId: document.id, sentTo: to, language: loaded.language, expiresAt },
      });
      return { data: await latest(ctx, document, now), code: 'signing_request_sent' as const };
    },

    /** A new link (the old one stops working) and a new expiry for the pending or expired request. */
    async resend({ ctx, document, now = new Date() }: { ctx: RequestContext; document: SigningDocument; now?: Date }) {
      const loaded = await load(ctx, document);
      refuseClosed(document, loaded);
      const pending = await repository.pendingOf(ctx, document.kind, document.id);
      if (!pending) throw new AppError('signing_request_not_pending');
      const token = newToken();
      const expiresAt = new Date(now.getTime() + validDays * dayMs);
      const to = await mail(ctx, loaded, expiresAt, token);
      await repository.updateRequest(ctx, pending.id, {
        tokenHash: hashToken(token),
        expiresAt,
        sentAt: now,
        sentBy: ctx.userId,
        sentTo: to,
        language: loaded.language,
      });
      await auditRequest(ctx, pending.id, 'resent', {
        patientId: loaded.patientId,
        before: { sentTo: pending.sentTo, expiresAt: pending.expiresAt.toISOString() },
        after: { sentTo: to, expiresAt: expiresAt.toISOString() },
      });
      return { data: await latest(ctx, document, now), code: 'signing_request_sent' as const };
    },

    /** The pending request's link stops working. */
    async cancel({ ctx, document, now = new Date() }: { ctx: RequestContext; document: SigningDocument; now?: Date }) {
      const loaded = await load(ctx, document);
      const pending = await repository.pendingOf(ctx, document.kind, document.id);
      if (!pending) throw new AppError('signing_request_not_pending');
      await repository.updateRequest(ctx, pending.id, {
        status: 'cancelled',
        cancelledAt: now,
        cancelledBy: ctx.userId,
      });
      await auditRequest(ctx, pending.id, 'cancelled', {
        patientId: loaded.patientId,
        before: { status: 'pending' },
        after: { status: 'cancelled' },
      });
      return { data: await latest(ctx, document, now), code: 'signing_request_cancelled' as const };
    },

    /** What the patient's page shows. */
    async showLink(token: string, ip: string, now = new Date()): Promise<{ data: SigningLink }> {
      return withLink(token, async (scope, request) => ({
        data: await linkOf(await linkContext(scope, request, ip), request, now),
      }));
    },

    /**
     * The patient's signature, once: through the chair's function, in the name of who sent the
     * request, from the signer's address.
     */
    async sign(
      token: string,
      input: RemoteSignRequest,
      ip: string,
      now = new Date(),
    ): Promise<{ data: SigningLink; code: 'document_signed' }> {
      return withLink(token, async (scope, request) => {
        const status = statusOf(request, now);
        if (status !== 'pending') {
          if (status === 'cancelled')
            await refuseClosedAtTheChair(await linkContext(scope, request, ip), request, status);
          throw new AppError('signing_link_stale', { why: status === 'signed' ? 'used' : status });
        }
        const ctx = await linkContext(scope, request, ip);
        const document = documentOf(request);
        const loaded = await loadOpen(ctx, document);
        // The patient signs what they read: an edit since the page opened signs nothing.
        if (loaded.text !== input.text) throw new AppError('signing_document_changed');
        const remote = { signingRequestId: request.id };
        if (document.kind === 'authorization') {
          const { signerName, signerIdNumber, signature } = input;
          await authorizationsService.sign({
            ctx,
            patientId: document.patientId,
            id: document.id,
            input: { signerName, signerIdNumber, signature },
            remote,
          });
        } else {
          await budgetsService.decide({
            ctx,
            id: document.id,
            input: {
              decision: 'accepted',
              decidedOn: null,
              signature: { image: input.signature, signerName: input.signerName, signerIdNumber: input.signerIdNumber },
              notes: null,
            },
            remote,
          });
        }
        await repository.updateRequest(ctx, request.id, { status: 'signed', signedAt: now, signerIp: ip });
        const signed = (await repository.lockRequest(ctx, request.id)) as repository.SigningRequestRow;
        return { data: await linkOf(ctx, signed, now), code: 'document_signed' as const };
      });
    },
  };
}

/**
 * The request context of a link: the clinic, and as actor who sent the request (the signature is
 * collected in their name), from the signer's address.
 */
async function linkContext(
  scope: { tx: TenantTx; accountId: string },
  request: repository.SigningRequestRow,
  ip: string,
): Promise<RequestContext> {
  const contact = await repository.patientContact(scope, request.patientId);
  const level = await repository.userLevel(scope, request.sentBy);
  if (!contact || !level) throw new AppError('signing_document_closed', { why: 'voided' });
  return { ...scope, userId: request.sentBy, level, timeZone: contact.timeZone, ip };
}

function documentOf(request: repository.SigningRequestRow): SigningDocument {
  return request.kind === 'authorization'
    ? { kind: 'authorization', patientId: request.patientId, id: request.authorizationId as string }
    : { kind: 'budget', id: request.saleId as string };
}

/**
 * A request cancelled because its document was signed at the chair or answered at the desk
 * (closed-at-the-chair.ts), or closed otherwise since: its link says why the document is closed
 * (409 signing_document_closed, `signed`…), not merely that it was cancelled.
 */
async function refuseClosedAtTheChair(
  ctx: RequestContext,
  request: repository.SigningRequestRow,
  status: SigningRequestStatus,
): Promise<void> {
  if (status === 'cancelled') await loadOpen(ctx, documentOf(request));
}

/** The page's view of a request: the text it seals, in the language it was sent in. */
async function linkOf(ctx: RequestContext, request: repository.SigningRequestRow, now: Date): Promise<SigningLink> {
  const contact = await repository.patientContact(ctx, request.patientId);
  if (!contact) throw new AppError('signing_link_not_found');
  const status = statusOf(request, now);
  await refuseClosedAtTheChair(ctx, request, status);
  let text = '';
  if (status === 'pending') {
    text = (await loadOpen(ctx, documentOf(request))).text;
  }
  return {
    kind: request.kind,
    clinicName: contact.clinicName,
    clinicBrand: clinicBrand(contact),
    patientName: `${contact.firstName} ${contact.lastName}`,
    language: languageOf(request.language),
    text,
    status,
    expiresAt: request.expiresAt.toISOString(),
    signedAt: request.signedAt?.toISOString() ?? null,
  };
}

export type SigningRequestsService = ReturnType<typeof createSigningRequestsService>;
