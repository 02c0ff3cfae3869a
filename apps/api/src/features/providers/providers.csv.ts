import type { Provider } from '@odontia/shared/schemas/providers';
import { formatTaxId } from '@odontia/shared/tax-ids';
import { csvCurrency, csvFile } from '../../lib/csv.ts';

/**
 * GET /api/providers/export.csv (issue 17), in the convention of every CSV (lib/csv.ts). The header is fixed in Spanish whatever the
 * reader's language (like the inventory's), so a file always has the same columns; every field
 * of spec §3 "Provider" and ours, the tax id printed as its kind writes it, the currency as its ISO
 * code, the other enumerations as codes,
 * yes/no as `sí`/`no`.
 */

type Column = readonly [label: string, value: (provider: Provider) => unknown];

export const providerCsvColumns: readonly Column[] = [
  ['Nombre de fantasía', (p) => p.fantasyName],
  ['Razón social', (p) => p.bussinesName],
  ['Empresa o grupo', (p) => p.companyName],
  ['Tipo de identificación', (p) => p.taxIdKind],
  ['Identificación fiscal', (p) => formatTaxId(p.taxIdKind, p.nif)],
  ['Condición fiscal', (p) => p.fiscalCondition],
  ['Contacto', (p) => p.contactName],
  ['Dirección comercial', (p) => p.commercialAddress],
  ['Código de área', (p) => p.phoneAreaBussines],
  ['Teléfono', (p) => p.phoneBusiness],
  ['Móvil', (p) => p.phoneMobile],
  ['E-mail', (p) => p.email],
  ['Banco', (p) => p.bankName],
  ['Cuenta (CBU/IBAN)', (p) => p.bankAccount],
  ['Clave o alias', (p) => p.bankKey],
  ['Moneda', (p) => csvCurrency(p.currency)],
  ['Plazo de pago (días)', (p) => p.paymentTermDays],
  ['Notas', (p) => p.notes],
  ['Activo', (p) => p.active],
  ['Con comprobantes', (p) => p.hasDocuments],
  ['Actualizado', (p) => p.updatedAt],
];

function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'sí' : 'no';
  return String(value);
}

export function buildProvidersCsv(providers: Provider[]): string {
  return csvFile(
    providerCsvColumns.map(([label]) => label),
    providers.map((provider) => providerCsvColumns.map(([, value]) => csvValue(value(provider)))),
  );
}
