import type { Language, PaymentMethod } from '@odontia/shared/enums';

/**
 * A payment method's name in the reader's language, as the server prints it: on receipts, proofs
 * of payment, ledgers and reports (features/commercial) and on the cash registers' Z report
 * (features/cash-registers), which sits below the commercial engine that records money at a register.
 */
export const paymentMethodNames: Record<Language, Record<PaymentMethod, string>> = {
  es: {
    bank_transfer: 'Transferencia bancaria',
    cash_payment: 'Efectivo',
    credit_card: 'Tarjeta de crédito',
    debit_card: 'Tarjeta de débito',
    wallet: 'Billetera virtual',
    bank_deposit: 'Depósito bancario',
  },
  en: {
    bank_transfer: 'Bank transfer',
    cash_payment: 'Cash',
    credit_card: 'Credit card',
    debit_card: 'Debit card',
    wallet: 'Digital wallet',
    bank_deposit: 'Bank deposit',
  },
  fr: {
    bank_transfer: 'Virement bancaire',
    cash_payment: 'Espèces',
    credit_card: 'Carte de crédit',
    debit_card: 'Carte de débit',
    wallet: 'Portefeuille électronique',
    bank_deposit: 'Dépôt bancaire',
  },
  pt: {
    bank_transfer: 'Transferência bancária',
    cash_payment: 'Dinheiro',
    credit_card: 'Cartão de crédito',
    debit_card: 'Cartão de débito',
    wallet: 'Carteira digital',
    bank_deposit: 'Depósito bancário',
  },
};
