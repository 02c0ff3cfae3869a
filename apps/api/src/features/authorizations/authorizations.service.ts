import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import { type Currency, currencies, type Language, languages } from '@odontia/shared/enums';
import { genderedText } from '@odontia/shared/gendered-text';
import {
  type Authorization,
  type AuthorizationCreateInput,
  type AuthorizationDetail,
  type AuthorizationListQuery,
  type AuthorizationPlaceholder,
  type AuthorizationUpdateInput,
  type AuthorizationVerification,
  fillPlaceholders,
  formatMoney,
  type SignAuthorizationRequest,
  writtenDate,
} from '@odontia/shared/schemas/authorizations';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { presentStamps } from '../../db/records.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { renderPdf, safeFileName } from '../../lib/pdf.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { findProfessional } from '../clinical/clinical.repository.ts';
import { invalidFields, requirePatient, type TenantScope } from '../clinical/clinical.service.ts';
import { closePendingSigningRequest } from '../signing-requests/closed-at-the-chair.ts';
import { authorizationDocument, type PrintedSignature } from './authorization.pdf.ts';
import * as repository from './authorizations.repository.ts';
import { authorizationRecords as records } from './authorizations.repository.ts';
import { decodeSignature, pngDataUrl, signatureHash } from './signature.ts';

/**
 * Treatment authorizations (informed consent) of a patient (issue 6). Written from a template with
 * its placeholders filled, editable while unsigned; a signature stores the exact text signed
 * (title, a blank line, body), the PNG, the signer, who collected it and
 * SHA-256(UTF-8 text ‖ 0x00 ‖ PNG); unsign revokes it with a reason and keeps it. Every step writes
 * an audit event (entity 'authorization', with the patient) in the same transaction.
 *
 * Error codes: a signed authorization cannot be edited or deleted (409 authorization_is_signed); one
 * that was ever signed (its signatures revoked) cannot be deleted either, so a signed consent never
 * disappears from the history (409 error_delete_authorization); signing a signed one answers 409
 * error_sign_authorization; unsigning an unsigned one 409 error_unsign_authorization; an unexpected
 * failure while writing one, 500 error_create_authorization.
 */

type DocumentContext = NonNullable<Awaited<ReturnType<typeof repository.findDocumentContext>>>;
type Fields = Pick<
  AuthorizationCreateInput,
  'date' | 'professionalId' | 'treatment' | 'risks' | 'alternatives' | 'costEstimate'
>;

const languageOf = (value: string): Language => (languages.includes(value as Language) ? (value as Language) : 'es');
const currencyOf = (value: string): Currency =>
  currencies.includes(value as Currency) ? (value as Currency) : 'us_dollar';

/** The text a signature seals: the title, a blank line, the body. */
export const signedTextOf = (row: { title: string; body: string }) => `${row.title}\n\n${row.body}`;

function placeholderValues(
  context: DocumentContext,
  fields: Fields,
  professionalName: string,
): Record<AuthorizationPlaceholder, string> {
  const language = languageOf(context.language);
  return {
    patient: `${context.firstName} ${context.lastName}`,
    idNumber: context.ssn ?? '—',
    treatment: fields.treatment,
    risks: fields.risks ?? '—',
    alternatives: fields.alternatives ?? '—',
    cost: fields.costEstimate ? formatMoney(fields.costEstimate, currencyOf(context.currency), language) : '—',
    professional: professionalName,
    date: writtenDate(fields.date),
    clinic: context.clinicName,
  };
}

function toAuthorization(row: repository.AuthorizationRowWithNames): Authorization {
  return {
    id: row.id,
    patientId: row.patientId,
    templateId: row.templateId,
    templateTitle: row.templateTitle,
    date: row.date,
    professionalId: row.professionalId,
    professionalName: row.professionalName,
    title: row.title,
    treatment: row.treatment,
    risks: row.risks,
    alternatives: row.alternatives,
    costEstimate: row.costEstimate,
    body: row.body,
    status: row.status,
    signedAt: row.signedAt ? row.signedAt.toISOString() : null,
    revokedAt: row.status === 'unsigned' && row.revokedAt ? row.revokedAt.toISOString() : null,
    revokedByName: row.status === 'unsigned' && row.revokedAt ? row.revokedByName : null,
    ...presentStamps(row),
  };
}

/** The columns an edit compares (audit before/after). */
function auditColumns(row: Fields & { title: string; body: string }) {
  return {
    date: row.date,
    professionalId: row.professionalId,
    title: row.title,
    treatment: row.treatment,
    risks: row.risks ?? null,
    alternatives: row.alternatives ?? null,
    costEstimate: row.costEstimate ?? null,
    body: row.body,
  };
}

type Scope = { ctx: RequestContext; patientId: string };
type One = Scope & { id: string };

/**
 * A signature collected away from the chair (issue 37): the request it answers. The audit event
 * then says `remote: true` with the signer's address (ctx.ip) and time.
 */
export interface RemoteSignature {
  signingRequestId: string;
}

/** What a remote signature adds to the audit event of a signature. */
export const remoteAuditFields = (ctx: { ip: string }, remote: RemoteSignature | undefined, signedAt: Date) =>
  remote
    ? { remote: true, signingRequestId: remote.signingRequestId, signerIp: ctx.ip, signedAt: signedAt.toISOString() }
    : {};

async function detail(ctx: TenantScope, patientId: string, id: string): Promise<AuthorizationDetail> {
  const row = await repository.findAuthorization(ctx, patientId, id);
  if (!row) throw new AppError('authorization_not_found');
  const signatures = await repository.listSignatures(ctx, id);
  return {
    ...toAuthorization(row),
    signatures: signatures.map((signature) => ({
      id: signature.id,
      signerName: signature.signerName,
      signerIdNumber: signature.signerIdNumber,
      signedAt: signature.signedAt.toISOString(),
      collectedByName: signature.collectedByName,
      sha256: signature.sha256,
      signedText: signature.signedText,
      image: pngDataUrl(signature.signatureImage),
      revokedAt: signature.revokedAt ? signature.revokedAt.toISOString() : null,
      revokedByName: signature.revokedByName,
      revokeReason: signature.revokeReason,
    })),
  };
}

async function documentContext(ctx: TenantScope, patientId: string): Promise<DocumentContext> {
  const found = await repository.findDocumentContext(ctx, patientId);
  if (!found) throw new AppError('patient_not_found');
  return found;
}

async function professionalName(ctx: TenantScope, professionalId: string): Promise<string> {
  const found = await findProfessional(ctx.tx, ctx.accountId, professionalId);
  if (!found) throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
  return found.completeName;
}

/** The authorization locked for a write; 404 when there is none. */
async function lock(ctx: RequestContext, patientId: string, id: string) {
  const current = await records.findForUpdate(ctx, { patientId }, id);
  if (!current) throw new AppError('authorization_not_found');
  return current;
}

async function requireAuthorization(ctx: TenantScope, patientId: string, id: string): Promise<void> {
  await requirePatient(ctx, patientId);
  if (!(await repository.findAuthorization(ctx, patientId, id))) throw new AppError('authorization_not_found');
}

const auditAuthorization = recordAudit('authorization');

/** What an authorization's PDF prints, read in the caller's transaction (a request, or the right of access job). */
async function loadAuthorizationPrint(ctx: RequestContext, patientId: string, id: string) {
  await requirePatient(ctx, patientId);
  const authorization = await repository.findAuthorization(ctx, patientId, id);
  if (!authorization) throw new AppError('authorization_not_found');
  const signatures = await repository.listSignatures(ctx, id);
  return {
    authorization,
    signatures,
    found: await documentContext(ctx, patientId),
    clinic: await loadPrintHeader(ctx),
  };
}

async function renderAuthorizationPdf({
  authorization,
  signatures,
  found,
  clinic,
}: Awaited<ReturnType<typeof loadAuthorizationPrint>>): Promise<{ pdf: Buffer; fileName: string }> {
  const language = languageOf(found.language);
  // Like the screens, on the clinic's clock; a signature keeps its seconds.
  const moment = instantFormatter(language, found.timeZone, 'dateTimeSeconds');
  const printed = (signature: repository.SignatureRowWithNames): PrintedSignature => ({
    signerName: signature.signerName,
    signerIdNumber: signature.signerIdNumber,
    signedAt: moment(signature.signedAt),
    collectedByName: signature.collectedByName,
    sha256: signature.sha256,
    png: signature.signatureImage,
    revoked: signature.revokedAt
      ? {
          at: moment(signature.revokedAt),
          byName: signature.revokedByName,
          reason: signature.revokeReason ?? '',
        }
      : null,
  });
  // A standing signature prints the text as signed; otherwise the current text, marked unsigned,
  // and any revoked signatures after it, each saying so.
  const standing = signatures.find((signature) => signature.revokedAt === null);
  const cut = standing ? standing.signedText.indexOf('\n\n') : -1;
  const title = standing && cut >= 0 ? standing.signedText.slice(0, cut) : authorization.title;
  const text = standing && cut >= 0 ? standing.signedText.slice(cut + 2) : authorization.body;
  const pdf = await renderPdf(
    authorizationDocument({
      language,
      clinicName: found.clinicName,
      clinicContact: found.clinicContact,
      clinic,
      patientName: `${found.firstName} ${found.lastName}`,
      patientSsn: found.ssn,
      date: calendarDateFormatter(language)(authorization.date),
      professionalName: authorization.professionalName,
      title,
      text,
      signature: standing ? printed(standing) : null,
      earlier: signatures.filter((signature) => signature !== standing).map(printed),
    }),
  );
  return { pdf, fileName: safeFileName(`autorizacion-${found.lastName}-${authorization.date}.pdf`) };
}

/** The authorization's PDF, in the caller's transaction (the right of access ZIP, issue 42). */
export async function authorizationPdfOf(
  ctx: RequestContext,
  patientId: string,
  id: string,
): Promise<{ pdf: Buffer; fileName: string }> {
  return renderAuthorizationPdf(await loadAuthorizationPrint(ctx, patientId, id));
}

export const authorizationsService = {
  async list({ ctx, patientId, query }: Scope & { query: AuthorizationListQuery }) {
    await requirePatient(ctx, patientId);
    const { rows, total } = await repository.listAuthorizations(ctx, patientId, query);
    return { data: rows.map(toAuthorization), total, page: query.page, pageSize: query.pageSize };
  },

  async get({ ctx, patientId, id }: One): Promise<AuthorizationDetail> {
    await requirePatient(ctx, patientId);
    return detail(ctx, patientId, id);
  },

  /** An unexpected failure answers 500 error_create_authorization (the route's failure code). */
  async create({ ctx, patientId, input }: Scope & { input: AuthorizationCreateInput }): Promise<AuthorizationDetail> {
    await requirePatient(ctx, patientId, { lock: true });
    const template = await repository.findTemplateToWrite(ctx, input.templateId);
    if (!template) throw new AppError('authorization_template_not_found');
    if (!template.active) throw invalidFields([{ path: 'templateId', code: 'invalid_value' }]);
    const name = await professionalName(ctx, input.professionalId);
    const context = await documentContext(ctx, patientId);
    const values = placeholderValues(context, input, name);
    const id = newId();
    const columns = auditColumns({
      ...input,
      title: input.title ?? template.title,
      body: fillPlaceholders(genderedText(template.body, context.sex), values),
    });
    await records.insert(ctx, { ...columns, id, patientId, templateId: template.id, status: 'unsigned' });
    await auditAuthorization(ctx, id, 'created', {
      patientId,
      after: { ...columns, templateId: template.id },
    });
    return detail(ctx, patientId, id);
  },

  async update({ ctx, patientId, id, input }: One & { input: AuthorizationUpdateInput }): Promise<AuthorizationDetail> {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await lock(ctx, patientId, id);
    if (current.version !== input.version) {
      throw new AppError('version_conflict', { current: await detail(ctx, patientId, id) });
    }
    if (current.status === 'signed') throw new AppError('authorization_is_signed');
    const name = await professionalName(ctx, input.professionalId);
    const context = await documentContext(ctx, patientId);
    const values = placeholderValues(context, input, name);
    const next = auditColumns({ ...input, body: fillPlaceholders(genderedText(input.body, context.sex), values) });
    const { before, after } = changedFields(auditColumns(current), next);
    await records.update(ctx, id, next);
    await auditAuthorization(ctx, id, 'updated', {
      patientId,
      before,
      after,
    });
    return detail(ctx, patientId, id);
  },

  async remove({ ctx, patientId, id }: One): Promise<void> {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await lock(ctx, patientId, id);
    if (current.status === 'signed') throw new AppError('authorization_is_signed');
    if ((await repository.countSignatures(ctx, id)) > 0) throw new AppError('error_delete_authorization');
    await records.softDelete(ctx, id);
    await auditAuthorization(ctx, id, 'deleted', {
      patientId,
      before: { ...auditColumns(current), version: current.version },
      after: { deleted: true },
    });
  },

  /** Seals the current title and body with the signature; 409 error_sign_authorization when already signed. */
  async sign({
    ctx,
    patientId,
    id,
    input,
    remote,
  }: One & { input: SignAuthorizationRequest; remote?: RemoteSignature }): Promise<AuthorizationDetail> {
    const png = decodeSignature(input.signature);
    try {
      await requirePatient(ctx, patientId, { lock: true });
      const current = await lock(ctx, patientId, id);
      if (current.status === 'signed') throw new AppError('error_sign_authorization');
      const signedText = signedTextOf(current);
      const sha256 = signatureHash(signedText, png);
      const signatureId = newId();
      const signedAt = new Date();
      await repository.insertSignature(ctx, {
        id: signatureId,
        authorizationId: id,
        signedText,
        signatureImage: png,
        signerName: input.signerName,
        signerIdNumber: input.signerIdNumber,
        signedAt,
        sha256,
      });
      await records.update(ctx, id, { status: 'signed' });
      await auditAuthorization(ctx, id, 'signed', {
        patientId,
        before: { status: 'unsigned' },
        after: {
          status: 'signed',
          signatureId,
          signerName: input.signerName,
          signerIdNumber: input.signerIdNumber,
          signedAt: signedAt.toISOString(),
          sha256,
          imageBytes: png.length,
          ...remoteAuditFields(ctx, remote, signedAt),
        },
      });
      // Signed at the chair while a remote request was pending: its link must not sign again.
      if (!remote) await closePendingSigningRequest(ctx, { kind: 'authorization', id, patientId }, 'signed', signedAt);
      return await detail(ctx, patientId, id);
    } catch (error) {
      // Two signatures at once: the partial unique index lets one stand.
      if (isUniqueViolation(error)) throw new AppError('error_sign_authorization', undefined, { cause: error });
      throw error;
    }
  },

  /** Revokes the standing signature with a reason; it stays, with the revocation, in the record and the audit. */
  async unsign({ ctx, patientId, id, reason }: One & { reason: string }): Promise<AuthorizationDetail> {
    await requirePatient(ctx, patientId, { lock: true });
    const current = await lock(ctx, patientId, id);
    const standing = await repository.findStandingSignature(ctx, id);
    if (current.status !== 'signed' || !standing) throw new AppError('error_unsign_authorization');
    const revokedAt = new Date();
    await repository.revokeSignature(ctx, standing.id, { at: revokedAt, reason });
    await records.update(ctx, id, { status: 'unsigned' });
    await auditAuthorization(ctx, id, 'unsigned', {
      patientId,
      before: { status: 'signed', signatureId: standing.id, sha256: standing.sha256 },
      after: { status: 'unsigned', signatureId: standing.id, revokedAt: revokedAt.toISOString(), reason },
    });
    return detail(ctx, patientId, id);
  },

  /** Recomputes each signature's hash from the stored text and image. */
  async verify({ ctx, patientId, id }: One): Promise<AuthorizationVerification> {
    await requireAuthorization(ctx, patientId, id);
    const signatures = (await repository.listSignatures(ctx, id)).map((signature) => {
      const recomputed = signatureHash(signature.signedText, signature.signatureImage);
      return {
        id: signature.id,
        sha256: signature.sha256,
        recomputed,
        matches: recomputed === signature.sha256,
        revoked: signature.revokedAt !== null,
      };
    });
    return { valid: signatures.every((signature) => signature.matches), signatures };
  },

  /**
   * The printed authorization in the patient's language: the signed text and signature when
   * signed. Reads in one transaction, then renders outside it (the route runs without one).
   */
  async pdf({
    db,
    actor,
    patientId,
    id,
  }: {
    db: Database;
    actor: Actor;
    patientId: string;
    id: string;
  }): Promise<{ pdf: Buffer; fileName: string }> {
    const loaded = await inTransaction(db, actor, (ctx) => loadAuthorizationPrint(ctx, patientId, id));
    return renderAuthorizationPdf(loaded);
  },

  async changes({ ctx, patientId, id, query }: One & { query: PageQuery }) {
    await requireAuthorization(ctx, patientId, id);
    return listRecordChanges(ctx.tx, ctx.accountId, { entity: 'authorization', entityId: id }, query);
  },
};
