import { adapterRegistry } from '../../lib/adapter-registry.ts';

/**
 * Payment providers of renewals (issue 19): a real gateway (Stripe, Mercado Pago…) sits behind
 * this small interface; none is reachable from here, so only the `manual` adapter ships. It is
 * chosen by `PAYMENT_ADAPTER` (default `manual`).
 * `requestPayment` takes an idempotency key (the order's id): a retry must not charge twice.
 */

export interface RenewalOrderRequest {
  id: string;
  accountId: string;
  reference: string;
  plan: string;
  amount: string;
  currency: string;
  periodStart: string;
  periodEnd: string;
}

export type PaymentAnswer =
  /** The clinic pays later (a transfer); the operator, or the gateway's notice, marks it paid. */
  | { status: 'pending'; checkoutUrl?: string; providerReference?: string }
  /** Charged at once (a card on file). */
  | { status: 'paid'; providerReference?: string };

export interface PaymentAdapter {
  readonly name: string;
  requestPayment(order: RenewalOrderRequest, idempotencyKey: string): Promise<PaymentAnswer>;
}

/**
 * The manual adapter: no gateway. The order stays pending until Odontia's operator receives the
 * transfer and runs `npm run operator -- mark-paid <reference>`.
 */
export function manualAdapter(): PaymentAdapter {
  return {
    name: 'manual',
    async requestPayment() {
      return { status: 'pending' };
    },
  };
}

const payments = adapterRegistry<PaymentAdapter>('PAYMENT_ADAPTER', { manual: manualAdapter }, 'manual');

/** The app's start names the adapter of its configuration (PAYMENT_ADAPTER); unknown names fail there. */
export const configurePayments = (name: string): void => payments.configure(name);

/** Tests put their own adapter (one that charges at once) under a name. */
export const registerPaymentAdapter = (adapter: PaymentAdapter): void => payments.register(adapter);

/** The configured adapter, or the one named. */
export const paymentAdapter = (name?: string): PaymentAdapter => payments.get(name);
