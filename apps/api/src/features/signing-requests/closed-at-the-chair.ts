import type { SigningKind } from '@odontia/shared/schemas/signing-requests';
import type { AuditedContext } from '../../context.ts';
import { recordAudit } from '../audit/audit.repository.ts';
import * as repository from './signing-requests.repository.ts';

/**
 * Why a document's pending signing request was closed by the clinic's own answer (issue 37): a
 * consent or a budget signed at the chair, or a budget answered at the desk without a signature.
 */
export type ClosedAtTheChair = 'signed' | 'answered';

const auditRequest = recordAudit('signing_request');

/**
 * The document was signed at the chair (or the budget answered at the desk) while a request to sign
 * it remotely was pending: the request is closed in the same transaction — stored `cancelled`, by
 * who signed, audited `signing_request_superseded` with the reason — so its link says the document
 * is already signed and never offers a second signature. Nothing happens without a pending request.
 * Not for a remote signature: that one answers the request, which the signing service marks signed.
 */
export async function closePendingSigningRequest(
  ctx: AuditedContext,
  document: { kind: SigningKind; id: string; patientId: string | null },
  why: ClosedAtTheChair,
  now = new Date(),
): Promise<void> {
  // One past its expiry is stored as expired, as a new send would: its link already says so.
  await repository.closeExpired(ctx, document.kind, document.id, now);
  const pending = await repository.pendingOf(ctx, document.kind, document.id);
  if (!pending) return;
  await repository.updateRequest(ctx, pending.id, { status: 'cancelled', cancelledAt: now, cancelledBy: ctx.userId });
  await auditRequest(ctx, pending.id, 'superseded', {
    patientId: document.patientId ?? pending.patientId,
    before: { status: 'pending' },
    after: { status: 'cancelled', why, documentId: document.id },
  });
}
