import type { Language } from '@odontia/shared/enums';
import type {
  PortalAppointment,
  PortalBalance,
  PortalDocument,
  PortalDocumentKind,
  PortalMe,
} from '@odontia/shared/schemas/portal';
import Big from 'big.js';
import type { FastifyRequest } from 'fastify';
import type { Actor, RequestContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { sessionOf } from '../../plugins/auth.ts';
import { inTransaction } from '../../plugins/routes.ts';
import { authorizationsService } from '../authorizations/authorizations.service.ts';
import { certificatePdf, certificatesService } from '../certificates/certificates.service.ts';
import { collectionsService } from '../collections/collections.service.ts';
import { receiptPdf } from '../collections/receipt.pdf.ts';
import { prescriptionPdf, prescriptionsService } from '../prescriptions/prescriptions.service.ts';
import { salePdf } from '../sales/sale.pdf.ts';
import { salesService } from '../sales/sales.service.ts';
import * as repository from './portal.repository.ts';

/**
 * The patient of a portal request (issue 37): a customer session's `patientId`, carried by the
 * session check. Staff have no `portal.use`, so a portal route never reaches here without one;
 * the check stays as the last line of defence.
 */
export function portalPatientOf(source: FastifyRequest | Pick<Actor, 'patientId'>): string {
  const patientId = 'session' in source ? sessionOf(source).patientId : source.patientId;
  if (!patientId) throw new AppError('forbidden');
  return patientId;
}

/**
 * GET /api/portal/me: the patient, their clinic and the portal's settings (the person's sign-in and
 * clinics are added by the access service, across clinics).
 */
export async function portalMe(ctx: RequestContext): Promise<Omit<PortalMe, 'signIn' | 'clinics'>> {
  const patientId = portalPatientOf(ctx);
  const [patient, clinic] = await Promise.all([
    repository.findOwnPatient(ctx.tx, patientId),
    repository.findOwnClinic(ctx.tx, ctx.accountId),
  ]);
  // A patient deleted since the session began: the portal is gone with them.
  if (!patient || !clinic) throw new AppError('unauthorized');
  return {
    patient: { ...patient, language: patient.language as Language },
    clinic: clinic.clinic,
    settings: {
      changeHours: (await repository.findRules(ctx)).changeHours,
      paymentInstructions: clinic.paymentInstructions,
    },
  };
}

/** Whether an appointment may still be cancelled or moved online: scheduled and before the window. */
function beforeWindow(status: string, startsAt: Date, now: Date, windowHours: number): boolean {
  return status === 'scheduled' && startsAt.getTime() - now.getTime() >= windowHours * 3_600_000;
}

/** GET /api/portal/appointments: upcoming (soonest first) and past (newest first). */
export async function portalAppointments(ctx: RequestContext): Promise<{
  upcoming: PortalAppointment[];
  past: PortalAppointment[];
}> {
  const patientId = portalPatientOf(ctx);
  const rows = await repository.listOwnAppointments(ctx.tx, patientId);
  const now = new Date();
  // Online booking's change window (issue 37): confirm, cancel and reschedule up to it.
  const window = (await repository.findRules(ctx)).changeHours;
  const appointments = rows.map((row): PortalAppointment => {
    const startsAt = new Date(row.starts_at);
    const open = beforeWindow(row.status, startsAt, now, window);
    return {
      id: row.id,
      startsAt: startsAt.toISOString(),
      endsAt: new Date(row.ends_at).toISOString(),
      status: row.status,
      professionalId: row.professional_id,
      professionalName: row.professional_name,
      treatmentId: row.treatment_id,
      treatmentName: row.treatment_name,
      reason: row.reason,
      confirmedAt: row.confirmed_at === null ? null : new Date(row.confirmed_at).toISOString(),
      canCancel: open,
      canReschedule: open,
    };
  });
  const upcoming = appointments.filter((row) => new Date(row.endsAt) > now).reverse();
  const past = appointments.filter((row) => new Date(row.endsAt) <= now);
  return { upcoming, past };
}

/** GET /api/portal/documents: the patient's documents, newest first. */
export async function portalDocuments(ctx: RequestContext): Promise<PortalDocument[]> {
  return repository.listOwnDocuments(ctx.tx, portalPatientOf(ctx));
}

/** GET /api/portal/balance: the patient's customer account(s) in the clinic's currency, and how to pay. */
export async function portalBalance(ctx: RequestContext): Promise<PortalBalance> {
  const patientId = portalPatientOf(ctx);
  const clinic = await repository.findOwnClinic(ctx.tx, ctx.accountId);
  if (!clinic) throw new AppError('unauthorized');
  const customerIds = await repository.listOwnCustomerIds(ctx.tx, patientId);
  let balance = new Big(0);
  let onAccount = new Big(0);
  const documents: PortalBalance['documents'] = [];
  for (const customerId of customerIds) {
    const account = await collectionsService.openDocuments({ ctx, customerId });
    balance = balance.plus(account.balance);
    onAccount = onAccount.plus(account.onAccount);
    documents.push(...account.documents);
  }
  return {
    currency: clinic.clinic.currency,
    balance: balance.toFixed(2),
    onAccount: onAccount.toFixed(2),
    documents,
    paymentInstructions: clinic.paymentInstructions,
  };
}

/**
 * GET /api/portal/documents/:kind/:id/pdf: the SAME PDF the clinic prints, through the clinic's
 * own printouts, once the document is one the portal lists for this patient (a draft, a voided
 * certificate or another patient's document answers 404). Read in the patient's transaction,
 * rendered after it.
 */
export async function portalDocumentPdf(
  db: Database,
  actor: Actor,
  params: { kind: PortalDocumentKind; id: string },
): Promise<{ pdf: Buffer; fileName: string }> {
  const patientId = portalPatientOf(actor);
  const { kind, id } = params;
  const render = await inTransaction(db, actor, async (ctx) => {
    const [listed] = await repository.listOwnDocuments(ctx.tx, patientId, { kind, id });
    if (!listed) throw new AppError('not_found');
    switch (kind) {
      case 'prescription': {
        const printable = await prescriptionsService.printable({ ctx, patientId, id });
        return () => prescriptionPdf(printable);
      }
      case 'certificate': {
        const printable = await certificatesService.printable({ ctx, patientId, id });
        return () => certificatePdf(printable);
      }
      case 'sale': {
        const printable = await salesService.printable({ ctx, id });
        return () => salePdf(printable);
      }
      case 'receipt': {
        const printable = await collectionsService.printable({ ctx, id });
        return () => receiptPdf({ ...printable, timeZone: actor.timeZone });
      }
      case 'consent':
        return undefined;
    }
  });
  // The consent's printout opens its own transaction (as the patient too: inTransaction).
  if (!render) return authorizationsService.pdf({ db, actor, patientId, id });
  return render();
}
