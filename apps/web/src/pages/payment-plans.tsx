import '../lib/zod-setup';

/** `/payment-plans` (issue 40; commercial.read, writes commercial.write): instalments due and overdue, and the plans. */
export { PaymentPlansPage } from '../features/payment-plans/payment-plans-page';
