import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { pointOfSaleContracts, updateFiscalDataSchema } from '@odontia/shared/schemas/clinic-fiscal';
import { createPurchaseSchema, type DocumentLineInput } from '@odontia/shared/schemas/commercial-documents';
import { createPaymentSchema } from '@odontia/shared/schemas/payments';
import { providerContracts } from '@odontia/shared/schemas/providers';
import { and, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import type { RequestContext } from '../context.ts';
import { inventoryItems } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { saveLogo } from '../features/fiscal/fiscal.repository.ts';
import { fiscalService, normalizeLogo, pointsOfSaleService } from '../features/fiscal/fiscal.service.ts';
import { paymentsService } from '../features/payments/payments.service.ts';
import { providersService } from '../features/providers/providers.service.ts';
import { purchasesService } from '../features/purchases/purchases.service.ts';
import { demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's commercial area (issue 17): its three providers in Buenos Aires, in pesos,
 * written through the service (validated, audited like the screen's saves). The CUITs are made
 * up with valid check digits. `seedDemoCommercial` answers the providers' ids by key, so the
 * purchases and payments of the demo can be appended after them (same context).
 */

export const demoProviders = {
  depot: {
    fantasyName: 'Depósito Dental Rivadavia',
    bussinesName: 'Rivadavia Insumos Odontológicos S.R.L.',
    companyName: null,
    nif: '30-70894512-5',
    taxIdKind: 'cuit',
    fiscalCondition: 'ar_responsable_inscripto',
    contactName: 'Gabriela Ferreyra',
    commercialAddress: 'Av. Rivadavia 5230, Caballito, CABA',
    phoneAreaBussines: '11',
    phoneBusiness: '4902-3311',
    phoneMobile: '11 5487-2290',
    email: 'pedidos@depositorivadavia.com.ar',
    bankName: 'Banco de la Nación Argentina',
    bankAccount: '0110012230001234567891',
    bankKey: 'RIVADAVIA.DENTAL',
    currency: 'argentine_peso',
    paymentTermDays: 30,
    notes: 'Composites, descartables y materiales de impresión. Reparto martes y viernes.',
    active: true,
  },
  implants: {
    fantasyName: 'Implantes Austral',
    bussinesName: 'Austral Implant Systems S.A.',
    companyName: 'Grupo Austral Salud',
    nif: '30-71234509-4',
    taxIdKind: 'cuit',
    fiscalCondition: 'ar_responsable_inscripto',
    contactName: 'Ing. Pablo Medina',
    commercialAddress: 'Av. Córdoba 2145, piso 3, Recoleta, CABA',
    phoneAreaBussines: '11',
    phoneBusiness: '4961-7700',
    phoneMobile: '11 6023-4415',
    email: 'ventas@implantesaustral.com.ar',
    bankName: 'Banco Galicia',
    bankAccount: '0070089420000004567893',
    bankKey: 'AUSTRAL.IMPLANTES',
    currency: 'argentine_peso',
    paymentTermDays: 60,
    notes: 'Distribuidor de implantes, pilares y kits quirúrgicos. Consignación para cirugías programadas.',
    active: true,
  },
  pharmacy: {
    fantasyName: 'Laboratorio Andino',
    bussinesName: 'Laboratorio Farmacéutico Andino S.A.',
    companyName: null,
    nif: '30-65432198-8',
    taxIdKind: 'cuit',
    fiscalCondition: 'ar_responsable_inscripto',
    contactName: 'Farm. Lucía Benítez',
    commercialAddress: 'Av. San Martín 3870, Villa del Parque, CABA',
    phoneAreaBussines: '11',
    phoneBusiness: '4503-1290',
    phoneMobile: null,
    email: 'odontologia@labandino.com.ar',
    bankName: 'Banco Santander Argentina',
    bankAccount: '0720123488000035678904',
    bankKey: 'LAB.ANDINO',
    currency: 'argentine_peso',
    paymentTermDays: 15,
    notes: 'Anestésicos locales (lidocaína, articaína, mepivacaína), antisépticos y medicación.',
    active: true,
  },
} as const;

export type DemoProviderKey = keyof typeof demoProviders;

/** The seed's request context: the administrator of the demo clinic. */
export function demoCommercialContext(tx: TenantTx, accountId: string, userId: string): RequestContext {
  return { tx, accountId, userId, level: 'administrator', timeZone: demoTimeZone, ip: '127.0.0.1' };
}

export async function seedDemoProviders(ctx: RequestContext): Promise<Record<DemoProviderKey, string>> {
  const ids = {} as Record<DemoProviderKey, string>;
  for (const [key, provider] of Object.entries(demoProviders) as [
    DemoProviderKey,
    (typeof demoProviders)[DemoProviderKey],
  ][]) {
    const created = await providersService.create({ ctx, input: providerContracts.create.parse(provider) });
    ids[key] = created.id;
  }
  return ids;
}

/**
 * The clinic's fiscal data (a responsable inscripto in Buenos Aires), its point of sale and a logo
 * drawn here (a tooth in the clinic's teal), so every PDF of the demo prints a real header.
 */
async function seedDemoFiscalData(ctx: RequestContext): Promise<void> {
  const current = await fiscalService.get({ ctx });
  await fiscalService.update({
    ctx,
    input: updateFiscalDataSchema.parse({
      legalName: 'Clínica Dental Sonrisa S.R.L.',
      tradeName: 'Clínica Dental Sonrisa',
      country: 'AR',
      taxIdKind: 'cuit',
      taxId: '30-71234567-1',
      fiscalCondition: 'ar_responsable_inscripto',
      address: 'Av. Santa Fe 2450, piso 3',
      city: 'Ciudad Autónoma de Buenos Aires',
      province: 'Buenos Aires',
      postalCode: 'C1123',
      phone: '+54 11 4821-5566',
      phoneMobile: '+54 9 11 5566-2450',
      email: 'recepcion@sonrisa.demo',
      website: null,
      version: current.version,
    }),
  });
  await pointsOfSaleService.create({ ctx, input: pointOfSaleContracts.create.parse({ code: '1', name: 'Recepción' }) });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240">
    <rect width="240" height="240" rx="48" fill="#0f766e"/>
    <path d="M120 62c-18-16-58-16-66 18-6 26 6 46 14 70 6 20 8 48 24 48 14 0 12-34 28-34s14 34 28 34c16 0 18-28 24-48 8-24 20-44 14-70-8-34-48-34-66-18z" fill="#ffffff"/>
    <path d="M86 92c6-12 22-14 30-6" stroke="#5eead4" stroke-width="8" fill="none" stroke-linecap="round"/>
  </svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  await saveLogo(ctx, await normalizeLogo(png));
}

type Line = Omit<DocumentLineInput, 'itemId'> & { sku?: string; sourceLineId?: string };

/**
 * A few months of purchases and payments with the three providers, written through the services
 * (stock in with the cost, the ledger, the SKU memory, the audit) as the screens would: delivery
 * notes and the invoices that bill them, direct invoices, a credit note for a returned unit, a
 * purchase order, payments in full, in part and on account, one pending and one reversed.
 */
async function seedDemoPurchasing(ctx: RequestContext, providers: Record<DemoProviderKey, string>): Promise<void> {
  const today = clinicToday(ctx.timeZone);
  const skus = [
    'INS-GUA-M',
    'INS-EYE',
    'INS-COMP-A2',
    'INS-IONO',
    'INS-FRE-DIA',
    'INS-BAB',
    'INS-BAR-3C',
    'INS-IMP-375',
  ];
  const moreSkus = ['INS-HIL-00', 'MED-LIDO-2E', 'MED-ARTI-4', 'MED-AMOX-500', 'INS-AGU-30G'];
  const items = await ctx.tx
    .select({ id: inventoryItems.id, sku: inventoryItems.sku })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.accountId, ctx.accountId), inArray(inventoryItems.sku, [...skus, ...moreSkus])));
  const itemOf = new Map(items.map((item) => [item.sku, item.id]));
  const lines = (list: Line[]) =>
    list.map(({ sku, ...line }) => ({ ...line, itemId: sku ? (itemOf.get(sku) ?? null) : null }));
  let number = 1200;
  const purchase = async (
    provider: DemoProviderKey,
    values: {
      documentType: string;
      daysAgo: number;
      pos?: string;
      related?: string;
      returnsGoods?: boolean;
      lines: Line[];
      notes?: string;
      register?: boolean;
      deliveryInDays?: number;
    },
  ) => {
    number += 7;
    const created = await purchasesService.create({
      ctx,
      input: createPurchaseSchema.parse({
        providerId: providers[provider],
        documentType: values.documentType,
        pointOfService: values.pos ?? '0003',
        documentNumber: String(number),
        date: addDays(today, -values.daysAgo),
        deliveryDate: values.deliveryInDays === undefined ? null : addDays(today, values.deliveryInDays),
        currency: 'argentine_peso',
        conditionSale: 'current_account',
        notes: values.notes ?? null,
        relatedDocumentId: values.related ?? null,
        returnsGoods: values.returnsGoods ?? false,
        lines: lines(values.lines),
        register: values.register ?? true,
      }),
    });
    return created.data;
  };
  const pay = async (
    provider: DemoProviderKey,
    values: {
      daysAgo: number;
      amount: string;
      method: string;
      allocations: { documentId: string; amount: string }[];
      status?: string;
      reference?: string;
      notes?: string;
    },
  ) =>
    paymentsService.create({
      ctx,
      input: createPaymentSchema.parse({
        providerId: providers[provider],
        date: addDays(today, -values.daysAgo),
        amount: values.amount,
        currency: 'argentine_peso',
        method: values.method,
        transactionNumber: values.reference ?? null,
        notes: values.notes ?? null,
        status: values.status ?? 'paid',
        allocations: values.allocations,
      }),
    });

  // Depósito Dental Rivadavia: a delivery note and the invoice that bills it, a direct invoice
  // paid in half, a credit note for a returned composite, this month's disposables still due.
  const gloves: Line[] = [
    {
      sku: 'INS-GUA-M',
      skuProvider: 'RV-GN-M',
      description: 'Guantes de nitrilo talle M x100',
      quantity: '10',
      unitPrice: '8600.00',
      vatRate: '21',
    },
    {
      sku: 'INS-EYE',
      skuProvider: 'RV-EY-100',
      description: 'Eyectores descartables x100',
      quantity: '6',
      unitPrice: '3100.00',
      vatRate: '21',
    },
  ];
  const deliveryNote = await purchase('depot', {
    documentType: 'delivery_note',
    daysAgo: 95,
    pos: '0007',
    lines: gloves,
  });
  const billed = await purchase('depot', {
    documentType: 'invoice',
    daysAgo: 92,
    related: deliveryNote.id,
    lines: gloves,
  });
  await pay('depot', {
    daysAgo: 70,
    amount: billed.total,
    method: 'bank_transfer',
    reference: 'TRF 004512',
    allocations: [{ documentId: billed.id, amount: billed.total }],
  });
  const restorative = await purchase('depot', {
    documentType: 'invoice',
    daysAgo: 58,
    lines: [
      {
        sku: 'INS-COMP-A2',
        skuProvider: 'RV-CMP-A2',
        description: 'Composite fotocurable A2 4 g',
        quantity: '6',
        unitPrice: '23900.00',
        discountRate: '5',
        vatRate: '21',
      },
      {
        sku: 'INS-IONO',
        skuProvider: 'RV-IONO',
        description: 'Ionómero vítreo restaurador',
        quantity: '2',
        unitPrice: '56500.00',
        vatRate: '21',
      },
      {
        sku: 'INS-FRE-DIA',
        skuProvider: 'RV-FD-TC',
        description: 'Fresas de diamante troncocónicas',
        quantity: '12',
        unitPrice: '2850.00',
        vatRate: '21',
      },
      { description: 'Flete a domicilio', quantity: '1', unitPrice: '6500.00', vatRate: '21' },
    ],
  });
  const half = (amount: string) => (Math.round(Number(amount) * 50) / 100).toFixed(2);
  await pay('depot', {
    daysAgo: 40,
    amount: half(restorative.total),
    method: 'bank_transfer',
    reference: 'TRF 004988',
    allocations: [{ documentId: restorative.id, amount: half(restorative.total) }],
  });
  await purchase('depot', {
    documentType: 'credit_note',
    daysAgo: 50,
    related: restorative.id,
    returnsGoods: true,
    notes: 'Devolución de un composite con el envase dañado.',
    lines: [
      {
        sku: 'INS-COMP-A2',
        skuProvider: 'RV-CMP-A2',
        description: 'Composite fotocurable A2 4 g (devolución)',
        quantity: '1',
        unitPrice: '23900.00',
        discountRate: '5',
        vatRate: '21',
      },
    ],
  });
  await purchase('depot', {
    documentType: 'invoice',
    daysAgo: 12,
    lines: [
      {
        sku: 'INS-BAB',
        skuProvider: 'RV-BAB-500',
        description: 'Baberos descartables x500',
        quantity: '3',
        unitPrice: '11200.00',
        vatRate: '21',
      },
      {
        sku: 'INS-BAR-3C',
        skuProvider: 'RV-BAR-50',
        description: 'Barbijos triple capa x50',
        quantity: '8',
        unitPrice: '2500.00',
        vatRate: '21',
      },
    ],
  });

  // The conical implant, on every document of Implantes Austral.
  const implant375 = (quantity: string, unitPrice: string): Line => ({
    sku: 'INS-IMP-375',
    skuProvider: 'AUS-C375-10',
    description: 'Implante cónico 3,75 x 10 mm',
    quantity,
    unitPrice,
    vatRate: '10.5',
  });

  // Implantes Austral (60 days): implants paid in two parts, one by a deposit still pending; a
  // second invoice not yet due; a purchase order for the next surgeries.
  const implants = await purchase('implants', {
    documentType: 'invoice',
    daysAgo: 80,
    pos: '0002',
    lines: [
      implant375('4', '182000.00'),
      {
        sku: 'INS-HIL-00',
        skuProvider: 'AUS-HR-00',
        description: 'Hilo retractor #00',
        quantity: '2',
        unitPrice: '15200.00',
        vatRate: '21',
      },
    ],
  });
  const firstPart = (Math.round(Number(implants.total) * 60) / 100).toFixed(2);
  const secondPart = (Number(implants.total) - Number(firstPart)).toFixed(2);
  await pay('implants', {
    daysAgo: 30,
    amount: firstPart,
    method: 'bank_transfer',
    reference: 'TRF 005102',
    allocations: [{ documentId: implants.id, amount: firstPart }],
  });
  await pay('implants', {
    daysAgo: 2,
    amount: secondPart,
    method: 'bank_deposit',
    status: 'pending',
    reference: 'Depósito 7781',
    notes: 'Depósito programado para el viernes.',
    allocations: [{ documentId: implants.id, amount: secondPart }],
  });
  await purchase('implants', {
    documentType: 'invoice',
    daysAgo: 20,
    pos: '0002',
    lines: [implant375('2', '189000.00')],
  });
  // Issue 35: the clinic's order (numbered by the clinic, OC-00000001), received in part: two of
  // the three implants came with a delivery note; the third and the kit are still pending.
  const order = await purchase('implants', {
    documentType: 'purchase_order',
    daysAgo: 6,
    deliveryInDays: 5,
    notes: 'Para las cirugías programadas del mes próximo.',
    lines: [
      implant375('3', '189000.00'),
      {
        skuProvider: 'AUS-KIT-QX',
        description: 'Kit quirúrgico para implantes cónicos (consignación)',
        quantity: '1',
        unitPrice: '85000.00',
        vatRate: '21',
      },
    ],
  });
  const implantLine = order.lines[0];
  await purchase('implants', {
    documentType: 'delivery_note',
    daysAgo: 1,
    pos: '0002',
    related: order.id,
    lines: [
      {
        ...implant375('2', '189000.00'),
        ...(implantLine ? { sourceLineId: implantLine.id } : {}),
      },
    ],
  });

  // Laboratorio Andino (15 days): anaesthetics paid in cash; a payment first entered with the
  // wrong amount and reversed; money on account; this month's invoice overdue by a few days.
  const anaesthetics = await purchase('pharmacy', {
    documentType: 'invoice',
    daysAgo: 64,
    pos: '0004',
    lines: [
      {
        sku: 'MED-LIDO-2E',
        skuProvider: 'LA-LIDO2E-50',
        description: 'Lidocaína 2% con epinefrina x50 carpules',
        quantity: '3',
        unitPrice: '37800.00',
        vatRate: '21',
      },
      {
        sku: 'MED-ARTI-4',
        skuProvider: 'LA-ARTI4-50',
        description: 'Articaína 4% con epinefrina x50 carpules',
        quantity: '2',
        unitPrice: '60100.00',
        vatRate: '21',
      },
      {
        sku: 'INS-AGU-30G',
        skuProvider: 'LA-AG30-100',
        description: 'Agujas dentales cortas 30G x100',
        quantity: '4',
        unitPrice: '7200.00',
        vatRate: '21',
      },
    ],
  });
  const mistaken = await pay('pharmacy', {
    daysAgo: 50,
    amount: '100000.00',
    method: 'cash_payment',
    allocations: [{ documentId: anaesthetics.id, amount: '100000.00' }],
  });
  await paymentsService.reverse({
    ctx,
    id: mistaken.id,
    input: { version: mistaken.version, reason: 'Importe cargado por error: el pago fue por el total.' },
  });
  await pay('pharmacy', {
    daysAgo: 50,
    amount: anaesthetics.total,
    method: 'cash_payment',
    allocations: [{ documentId: anaesthetics.id, amount: anaesthetics.total }],
  });
  await pay('pharmacy', {
    daysAgo: 25,
    amount: '50000.00',
    method: 'bank_transfer',
    reference: 'TRF 005044',
    notes: 'Anticipo a cuenta del próximo pedido.',
    allocations: [],
  });
  await purchase('pharmacy', {
    documentType: 'invoice',
    daysAgo: 22,
    pos: '0004',
    lines: [
      {
        sku: 'MED-AMOX-500',
        skuProvider: 'LA-AMOX500',
        description: 'Amoxicilina 500 mg x16 comprimidos',
        quantity: '10',
        unitPrice: '4150.00',
        vatRate: '21',
      },
      {
        sku: 'MED-LIDO-2E',
        skuProvider: 'LA-LIDO2E-50',
        description: 'Lidocaína 2% con epinefrina x50 carpules',
        quantity: '2',
        unitPrice: '38900.00',
        vatRate: '21',
      },
    ],
  });
}

/** The demo's commercial area: fiscal data, providers, a few months of purchases and payments. */
export async function seedDemoCommercial(
  tx: TenantTx,
  accountId: string,
  { administratorId }: { administratorId: string },
): Promise<{ providers: Record<DemoProviderKey, string> }> {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  await seedDemoFiscalData(ctx);
  const providers = await seedDemoProviders(ctx);
  await seedDemoPurchasing(ctx, providers);
  return { providers };
}
