import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import { type Currency, currencies, type Language, languages } from '@odontia/shared/enums';
import {
  type Authorization,
  type AuthorizationCreateInput,
  type AuthorizationDetail,
  type AuthorizationListQuery,
  type AuthorizationPlaceholder,
  type AuthorizationStatus,
  type AuthorizationUpdateInput,
  type AuthorizationVerification,
  fillPlaceholders,
  formatMoney,
  type SignAuthorizationRequest,
  writtenDate,
} from '@odontia/shared/schemas/authorizations';
import type { PageQuery } from '@odontia/shared/schemas/records';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TenantTx } from '../../db/tenancy.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { renderPdf, safeFileName } from '../../lib/pdf.ts';
import type { AuthSession } from '../../plugins/auth.ts';
import { recordAuditEvent } from '../audit/audit.repository.ts';
import { changedFields, listRecordChanges } from '../audit/record-changes.ts';
import { findProfessional } from '../clinical/clinical.repository.ts';
import { invalidFields, requirePatient } from '../clinical/clinical.service.ts';
import { authorizationDocument, type PrintedSignature } from './authorization.pdf.ts';
import * as repository from './authorizations.repository.ts';
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

type Context = NonNullable<Awaited<ReturnType<typeof repository.findDocumentContext>>>;
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
  context: Context,
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
    status: row.status as AuthorizationStatus,
    signedAt: row.signedAt ? row.signedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
    version: row.version,
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

export function createAuthorizationsService({ db }: { db: Database }) {
  async function detail(tx: TenantTx, accountId: string, patientId: string, id: string): Promise<AuthorizationDetail> {
    const row = await repository.findAuthorization(tx, accountId, patientId, id);
    if (!row) throw new AppError('authorization_not_found');
    const signatures = await repository.listSignatures(tx, accountId, id);
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

  async function context(tx: TenantTx, accountId: string, patientId: string): Promise<Context> {
    const found = await repository.findDocumentContext(tx, accountId, patientId);
    if (!found) throw new AppError('patient_not_found');
    return found;
  }

  async function professionalName(tx: TenantTx, accountId: string, professionalId: string): Promise<string> {
    const found = await findProfessional(tx, accountId, professionalId);
    if (!found) throw invalidFields([{ path: 'professionalId', code: 'invalid_value' }]);
    return found.completeName;
  }

  async function lockUnsigned(tx: TenantTx, accountId: string, patientId: string, id: string) {
    const current = await repository.findAuthorizationForUpdate(tx, accountId, patientId, id);
    if (!current) throw new AppError('authorization_not_found');
    if (current.status === 'signed') throw new AppError('authorization_is_signed');
    return current;
  }

  return {
    async list(session: AuthSession, patientId: string, query: AuthorizationListQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const { rows, total } = await repository.listAuthorizations(tx, session.accountId, patientId, query);
        return { data: rows.map(toAuthorization), total, page: query.page, pageSize: query.pageSize };
      });
    },

    async get(session: AuthSession, patientId: string, id: string): Promise<AuthorizationDetail> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        return detail(tx, session.accountId, patientId, id);
      });
    },

    async create(
      session: AuthSession,
      patientId: string,
      input: AuthorizationCreateInput,
      ip: string,
    ): Promise<AuthorizationDetail> {
      try {
        return await db.withTenant(session.accountId, async (tx) => {
          await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
          const template = await repository.findTemplateToWrite(tx, session.accountId, input.templateId);
          if (!template) throw new AppError('authorization_template_not_found');
          if (!template.active) throw invalidFields([{ path: 'templateId', code: 'invalid_value' }]);
          const name = await professionalName(tx, session.accountId, input.professionalId);
          const values = placeholderValues(await context(tx, session.accountId, patientId), input, name);
          const id = newId();
          const columns = auditColumns({
            ...input,
            title: input.title ?? template.title,
            body: fillPlaceholders(template.body, values),
          });
          await repository.insertAuthorization(tx, {
            ...columns,
            accountId: session.accountId,
            id,
            patientId,
            templateId: template.id,
            status: 'unsigned',
            createdBy: session.userId,
            updatedBy: session.userId,
          });
          await recordAuditEvent(tx, {
            accountId: session.accountId,
            userId: session.userId,
            patientId,
            action: 'authorization_created',
            entity: 'authorization',
            entityId: id,
            ip,
            after: { ...columns, templateId: template.id },
          });
          return detail(tx, session.accountId, patientId, id);
        });
      } catch (error) {
        if (error instanceof AppError) throw error;
        throw new AppError('error_create_authorization', undefined, { cause: error });
      }
    },

    async update(
      session: AuthSession,
      patientId: string,
      id: string,
      input: AuthorizationUpdateInput,
      ip: string,
    ): Promise<AuthorizationDetail> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findAuthorizationForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('authorization_not_found');
        if (current.version !== input.version) {
          throw new AppError('version_conflict', { current: await detail(tx, session.accountId, patientId, id) });
        }
        if (current.status === 'signed') throw new AppError('authorization_is_signed');
        const name = await professionalName(tx, session.accountId, input.professionalId);
        const values = placeholderValues(await context(tx, session.accountId, patientId), input, name);
        const next = auditColumns({ ...input, body: fillPlaceholders(input.body, values) });
        const { before, after } = changedFields(auditColumns(current), next);
        await repository.updateAuthorization(tx, session.accountId, id, { ...next, updatedBy: session.userId });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'authorization_updated',
          entity: 'authorization',
          entityId: id,
          ip,
          before,
          after,
        });
        return detail(tx, session.accountId, patientId, id);
      });
    },

    async remove(session: AuthSession, patientId: string, id: string, ip: string): Promise<void> {
      await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await lockUnsigned(tx, session.accountId, patientId, id);
        if ((await repository.countSignatures(tx, session.accountId, id)) > 0) {
          throw new AppError('error_delete_authorization');
        }
        await repository.softDeleteAuthorization(tx, session.accountId, id, session.userId);
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'authorization_deleted',
          entity: 'authorization',
          entityId: id,
          ip,
          before: { ...auditColumns(current), version: current.version },
          after: { deleted: true },
        });
      });
    },

    /** Seals the current title and body with the signature; 409 error_sign_authorization when already signed. */
    async sign(
      session: AuthSession,
      patientId: string,
      id: string,
      input: SignAuthorizationRequest,
      ip: string,
    ): Promise<AuthorizationDetail> {
      const png = decodeSignature(input.signature);
      try {
        return await db.withTenant(session.accountId, async (tx) => {
          await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
          const current = await repository.findAuthorizationForUpdate(tx, session.accountId, patientId, id);
          if (!current) throw new AppError('authorization_not_found');
          if (current.status === 'signed') throw new AppError('error_sign_authorization');
          const signedText = signedTextOf(current);
          const sha256 = signatureHash(signedText, png);
          const signatureId = newId();
          const signedAt = new Date();
          await repository.insertSignature(tx, {
            accountId: session.accountId,
            id: signatureId,
            authorizationId: id,
            signedText,
            signatureImage: png,
            signerName: input.signerName,
            signerIdNumber: input.signerIdNumber,
            signedAt,
            collectedBy: session.userId,
            sha256,
          });
          await repository.updateAuthorization(tx, session.accountId, id, {
            status: 'signed',
            updatedBy: session.userId,
          });
          await recordAuditEvent(tx, {
            accountId: session.accountId,
            userId: session.userId,
            patientId,
            action: 'authorization_signed',
            entity: 'authorization',
            entityId: id,
            ip,
            before: { status: 'unsigned' },
            after: {
              status: 'signed',
              signatureId,
              signerName: input.signerName,
              signerIdNumber: input.signerIdNumber,
              signedAt: signedAt.toISOString(),
              sha256,
              imageBytes: png.length,
            },
          });
          return detail(tx, session.accountId, patientId, id);
        });
      } catch (error) {
        // Two signatures at once: the partial unique index lets one stand.
        if (isUniqueViolation(error)) throw new AppError('error_sign_authorization', undefined, { cause: error });
        throw error;
      }
    },

    /** Revokes the standing signature with a reason; it stays, with the revocation, in the record and the audit. */
    async unsign(
      session: AuthSession,
      patientId: string,
      id: string,
      reason: string,
      ip: string,
    ): Promise<AuthorizationDetail> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId, { lock: true });
        const current = await repository.findAuthorizationForUpdate(tx, session.accountId, patientId, id);
        if (!current) throw new AppError('authorization_not_found');
        const standing = await repository.findStandingSignature(tx, session.accountId, id);
        if (current.status !== 'signed' || !standing) throw new AppError('error_unsign_authorization');
        const revokedAt = new Date();
        await repository.revokeSignature(tx, session.accountId, standing.id, {
          at: revokedAt,
          by: session.userId,
          reason,
        });
        await repository.updateAuthorization(tx, session.accountId, id, {
          status: 'unsigned',
          updatedBy: session.userId,
        });
        await recordAuditEvent(tx, {
          accountId: session.accountId,
          userId: session.userId,
          patientId,
          action: 'authorization_unsigned',
          entity: 'authorization',
          entityId: id,
          ip,
          before: { status: 'signed', signatureId: standing.id, sha256: standing.sha256 },
          after: { status: 'unsigned', signatureId: standing.id, revokedAt: revokedAt.toISOString(), reason },
        });
        return detail(tx, session.accountId, patientId, id);
      });
    },

    /** Recomputes each signature's hash from the stored text and image. */
    async verify(session: AuthSession, patientId: string, id: string): Promise<AuthorizationVerification> {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        if (!(await repository.findAuthorization(tx, session.accountId, patientId, id))) {
          throw new AppError('authorization_not_found');
        }
        const signatures = (await repository.listSignatures(tx, session.accountId, id)).map((signature) => {
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
      });
    },

    /** The printed authorization in the patient's language: the signed text and signature when signed. */
    async pdf(session: AuthSession, patientId: string, id: string): Promise<{ pdf: Buffer; fileName: string }> {
      const { authorization, signatures, found } = await db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        const authorization = await repository.findAuthorization(tx, session.accountId, patientId, id);
        if (!authorization) throw new AppError('authorization_not_found');
        const signatures = await repository.listSignatures(tx, session.accountId, id);
        return { authorization, signatures, found: await context(tx, session.accountId, patientId) };
      });
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
    },

    async changes(session: AuthSession, patientId: string, id: string, page: PageQuery) {
      return db.withTenant(session.accountId, async (tx) => {
        await requirePatient({ tx: tx, accountId: session.accountId }, patientId);
        if (!(await repository.findAuthorization(tx, session.accountId, patientId, id))) {
          throw new AppError('authorization_not_found');
        }
        return listRecordChanges(tx, session.accountId, { entity: 'authorization', entityId: id }, page);
      });
    },
  };
}

export type AuthorizationsService = ReturnType<typeof createAuthorizationsService>;
