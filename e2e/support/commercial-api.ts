import type { APIRequestContext } from '@playwright/test';
import { apiCreate } from './clinic-api';

/*
 * The demo clinic's commercial data through the API (issue 17), as its administrator: a provider
 * of the test's own and registered purchases, through POST /api/providers and POST /api/purchases
 * (`register: true`), the routes of the providers' and purchases' screens.
 */

/** Days from the demo clinic's today ('YYYY-MM-DD'); negative for the past. */
export function dayFrom(today: string, days: number): string {
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** A provider with a unique name (no tax id: tests run side by side); answers its id and name. */
export async function createProvider(
  request: APIRequestContext,
  fields: Record<string, unknown> = {},
): Promise<{ id: string; fantasyName: string }> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  return apiCreate(request, 'api/providers', {
    fantasyName: `Depósito Dental E2E ${stamp}`,
    bussinesName: `Depósito Dental E2E ${stamp} S.R.L.`,
    currency: 'argentine_peso',
    commercialAddress: 'Av. Rivadavia 4500, CABA',
    paymentTermDays: 30,
    ...fields,
  });
}

/** A registered purchase invoice of one free-text line (net × qty + 21 % VAT); answers its id and total. */
export async function registerInvoice(
  request: APIRequestContext,
  input: { providerId: string; date: string; dueDate: string; quantity: string; unitPrice: string; number?: string },
): Promise<{ id: string; total: string }> {
  return apiCreate(request, 'api/purchases', {
    providerId: input.providerId,
    documentType: 'invoice',
    pointOfService: '0001',
    documentNumber: input.number ?? String(Date.now()).slice(-8),
    date: input.date,
    dueDate: input.dueDate,
    currency: 'argentine_peso',
    lines: [
      { description: 'Composite A2 jeringa 4 g', quantity: input.quantity, unitPrice: input.unitPrice, vatRate: '21' },
    ],
    register: true,
  });
}

/** A supply of the test's own (cost 100, price 200 + 21 % VAT, no stock alerts) with `totalStock` units; answers its id. */
export async function createSupply(request: APIRequestContext, name: string, totalStock: number): Promise<string> {
  const supply = await apiCreate(request, 'api/supplies', {
    name,
    unitMeasurement: 'unit',
    costPrice: '100',
    basePrice: '200',
    taxRate: '21',
    minStock: 0,
    reorderStock: 0,
    totalStock,
  });
  return supply.id;
}
