import type { PaymentMethod } from '@odontia/shared/enums';
import Big from 'big.js';
import type { AuditedContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import * as repository from './cash-registers.repository.ts';

/**
 * Money of the commercial engine at a register (issue 40): every collection (in) and payment
 * (out) made at a register is one movement per part in the register's open session, in the
 * payment's transaction; its reversal is the opposite movements in the session open at that
 * time (never the closed one it was taken in). Called by features/commercial/side-payments.ts.
 */

type Side = 'customer' | 'provider';
interface Part {
  method: PaymentMethod;
  amount: string;
}

const isCash = (part: Part) => part.method === 'cash_payment';

/**
 * The register's open session, locked in share mode (a closing waits for this movement): 404
 * cash_register_not_found for another clinic's or a deleted register, 409 cash_session_not_open
 * without one.
 */
async function openSessionOf(ctx: AuditedContext, registerId: string) {
  if (!(await repository.findRegister(ctx, registerId))) throw new AppError('cash_register_not_found');
  const session = await repository.findOpenSession(ctx, registerId, 'share');
  if (!session) throw new AppError('cash_session_not_open', { registerId });
  return session;
}

/**
 * Before a collection is written: the clinic's rule "a cash collection needs an open session"
 * (off by default) refuses one with a cash part that names no register.
 */
export async function checkCollectionRegister(
  ctx: AuditedContext,
  side: Side,
  registerId: string | null | undefined,
  parts: readonly Part[],
) {
  if (side !== 'customer' || registerId || !parts.some(isCash)) return;
  const settings = await repository.findSettings(ctx);
  if (settings?.cashNeedsOpenSession) throw new AppError('cash_session_not_open', { registerId: null });
}

/** The movements of a collection (+) or payment (−) made at `registerId`, one per part. */
export async function recordPaymentAtRegister(
  ctx: AuditedContext,
  input: { side: Side; registerId: string; paymentId: string; number: string; parts: readonly Part[] },
) {
  const session = await openSessionOf(ctx, input.registerId);
  const sign = input.side === 'customer' ? 1 : -1;
  await repository.insertMovements(
    ctx,
    input.parts.map((part) => ({
      id: newId(),
      sessionId: session.id,
      registerId: input.registerId,
      kind: input.side === 'customer' ? ('collection' as const) : ('payment' as const),
      method: part.method,
      amount: new Big(part.amount).times(sign).toFixed(2),
      paymentId: input.paymentId,
      description: input.number,
    })),
  );
  return { sessionId: session.id };
}

/**
 * A reversed collection or payment gives back what it moved at its register: the opposite
 * movements in the register's session open now (409 cash_session_not_open without one). A
 * payment never taken at a register moves nothing.
 */
export async function reversePaymentAtRegister(
  ctx: AuditedContext,
  input: { side: Side; paymentId: string; reason: string },
) {
  const taken = await repository.movementsOfPayment(ctx, input.paymentId);
  const first = taken[0];
  if (!first) return;
  const session = await openSessionOf(ctx, first.registerId);
  await repository.insertMovements(
    ctx,
    taken.map((movement) => ({
      id: newId(),
      sessionId: session.id,
      registerId: movement.registerId,
      kind: input.side === 'customer' ? ('collection_reversal' as const) : ('payment_reversal' as const),
      method: movement.method,
      amount: new Big(movement.amount).times(-1).toFixed(2),
      paymentId: input.paymentId,
      description: `${movement.description} · ${input.reason}`.slice(0, 300),
    })),
  );
}
