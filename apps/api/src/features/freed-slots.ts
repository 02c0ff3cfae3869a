import type { TenantTx } from '../db/tenancy.ts';

/*
 * A slot that frees in the agenda (issue 38): an appointment cancelled or moved (by the desk, the
 * patient's link or the portal), a clinic exception removed. The agenda announces it here and the
 * waiting list, a floor above, listens (app.ts): the agenda does not import the waiting list that
 * books through it.
 */

/** Who frees a slot: a request's actor, a patient's link (no user) or a job. */
export interface FreeingContext {
  readonly tx: TenantTx;
  readonly accountId: string;
  readonly userId: string | null;
  readonly ip: string;
}

/** The time [start, end) that freed, of one professional (null: all of them, a clinic-wide exception). */
export interface FreedSlot {
  readonly professionalId: string | null;
  readonly start: Date;
  readonly end: Date;
}

type Listener = (ctx: FreeingContext, slot: FreedSlot, now: Date) => Promise<unknown>;

// A set: building the app again (tests build many) does not make a listener run twice.
const listeners = new Set<Listener>();

export function onSlotFreed(listener: Listener): void {
  listeners.add(listener);
}

/** Tells the listeners, in the transaction that freed the slot: a rolled-back cancellation tells nobody. */
export async function slotFreed(ctx: FreeingContext, slot: FreedSlot, now = new Date()): Promise<void> {
  for (const listener of listeners) await listener(ctx, slot, now);
}
