import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import { budgetDecisionRequestSchema } from '@odontia/shared/schemas/budgets';
import { createCollectionSchema } from '@odontia/shared/schemas/collections';
import { customerRecordContracts } from '@odontia/shared/schemas/customer-records';
import { type CreateSaleInput, createSaleSchema } from '@odontia/shared/schemas/sales';
import { treatmentContracts } from '@odontia/shared/schemas/schedules';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { patients, treatments } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { collectionsService } from '../features/collections/collections.service.ts';
import { customersService } from '../features/customers/customers.service.ts';
import { budgetsService } from '../features/sales/budgets.service.ts';
import { salesService } from '../features/sales/sales.service.ts';
import { treatmentsService } from '../features/schedules/treatments.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';

/**
 * The demo clinic's sales (issue 18), written through the services as the screens write them:
 * the rest of a dental price list in pesos (the agenda's eight treatments already carry prices),
 * an insurer the clinic bills, four months of invoices — on current account, in cash, by card —
 * with the collections that settle most of them, budgets accepted, rejected and waiting, and a
 * credit note. Some invoices stay open and a few overdue, so the customers' current accounts show
 * balances and aging.
 */

/** More of a dental price list (November 2026, pesos). Health care is VAT-exempt in Argentina. */
const morePriceList = [
  { code: 'CON', name: 'Consulta de urgencia', groupName: 'Diagnóstico', price: '30000', durationMinutes: 30 },
  { code: 'RXP', name: 'Radiografía periapical', groupName: 'Diagnóstico', price: '12000', durationMinutes: 15 },
  { code: 'RXO', name: 'Radiografía panorámica', groupName: 'Diagnóstico', price: '35000', durationMinutes: 20 },
  { code: 'SEL', name: 'Sellador de fosas y fisuras', groupName: 'Prevención', price: '22000', durationMinutes: 20 },
  { code: 'FLU', name: 'Topicación con flúor', groupName: 'Prevención', price: '18000', durationMinutes: 15 },
  {
    code: 'EMC',
    name: 'Restauración compuesta (2 caras)',
    groupName: 'Operatoria',
    price: '75000',
    durationMinutes: 60,
  },
  { code: 'ENM', name: 'Endodoncia multirradicular', groupName: 'Endodoncia', price: '290000', durationMinutes: 120 },
  { code: 'PER', name: 'Perno muñón', groupName: 'Prótesis', price: '120000', durationMinutes: 45 },
  { code: 'COR', name: 'Corona de porcelana', groupName: 'Prótesis', price: '480000', durationMinutes: 60 },
  { code: 'PRR', name: 'Prótesis removible parcial', groupName: 'Prótesis', price: '650000', durationMinutes: 60 },
  { code: 'EXQ', name: 'Extracción quirúrgica', groupName: 'Cirugía', price: '160000', durationMinutes: 60 },
  {
    code: 'ORI',
    name: 'Instalación de ortodoncia fija',
    groupName: 'Ortodoncia',
    price: '850000',
    durationMinutes: 90,
  },
  { code: 'PLA', name: 'Placa miorrelajante', groupName: 'Ortodoncia', price: '140000', durationMinutes: 30 },
];

const insurer = {
  kind: 'insurer',
  name: 'Obra Social del Personal Odontológico',
  tradeName: 'OSPO',
  country: 'AR',
  taxIdKind: 'cuit',
  taxId: '30-54667039-9',
  fiscalCondition: 'ar_exento',
  address: 'Av. Belgrano 1670',
  city: 'Ciudad Autónoma de Buenos Aires',
  province: 'CABA',
  postalCode: 'C1093AAQ',
  email: 'prestadores@ospo.org.ar',
  phone: '11 4381-2200',
  language: 'es',
  paymentTermDays: 60,
  notes: 'Facturación mensual de prestaciones con autorización previa.',
  active: true,
} as const;

/**
 * Who does each treatment at the demo clinic (issue 35: every line names its professional, so
 * production by professional has a row per professional): Martín Sosa (endodontist) the root
 * canals and what goes on them, Carla Díaz (orthodontist) the orthodontics, Laura Gómez the rest.
 */
const demoProfessionalOf: Record<string, 0 | 1 | 2> = {
  END: 1,
  ENM: 1,
  PER: 1,
  COR: 1,
  ORI: 2,
  ORT: 2,
  PLA: 2,
  BLA: 2,
};

export async function seedDemoSales(
  tx: TenantTx,
  accountId: string,
  { administratorId, professionalIds }: { administratorId: string; professionalIds: readonly string[] },
) {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const today = clinicToday(ctx.timeZone);
  for (const treatment of morePriceList) {
    await treatmentsService.create({ ctx, input: treatmentContracts.create.parse({ ...treatment, vatRate: '0' }) });
  }
  const priceList = await tx
    .select({
      id: treatments.id,
      code: treatments.code,
      name: treatments.name,
      price: treatments.price,
      vat: treatments.vatRate,
    })
    .from(treatments)
    .where(and(eq(treatments.accountId, accountId), isNull(treatments.deletedAt)));
  const byCode = new Map(priceList.map((treatment) => [treatment.code, treatment]));
  const line = (code: string, tooth?: string) => {
    const treatment = byCode.get(code);
    if (!treatment) throw new Error(`demo treatment ${code} missing`);
    return {
      treatmentId: treatment.id,
      professionalId: professionalIds[demoProfessionalOf[code] ?? 0] ?? null,
      description: tooth ? `${treatment.name} — pieza ${tooth}` : treatment.name,
      tooth: tooth ?? null,
      quantity: '1',
      unitPrice: treatment.price,
      vatRate: treatment.vat,
    };
  };
  const people = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.accountId, accountId), isNull(patients.deletedAt), eq(patients.active, true)))
    .orderBy(asc(patients.skuPatient))
    .limit(12);
  const patientIds = people.map((person) => person.id);
  const patient = (index: number) => patientIds[index % patientIds.length] as string;

  const sale = async (input: Partial<CreateSaleInput> & Pick<CreateSaleInput, 'documentType' | 'date' | 'lines'>) => {
    const created = await salesService.create({
      ctx,
      input: createSaleSchema.parse({
        pointOfService: '0001',
        currency: 'argentine_peso',
        conditionSale: 'current_account',
        issue: true,
        ...input,
      }),
    });
    return created.data;
  };
  const collect = async (input: Record<string, unknown>) =>
    collectionsService.create({
      ctx,
      input: createCollectionSchema.parse({ currency: 'argentine_peso', status: 'paid', ...input }),
    });

  // Four months of the front desk, oldest first (numbers follow the dates).
  const plans: [number, string, ReturnType<typeof line>[], 'current_account' | 'cash' | 'cards'][] = [
    [-120, 'a', [line('REV'), line('RXO')], 'cash'],
    [-112, 'b', [line('LIM'), line('FLU')], 'cards'],
    [-105, 'c', [line('END', '36'), line('PER', '36')], 'current_account'],
    [-98, 'd', [line('EMP', '15'), line('EMP', '25')], 'current_account'],
    [-90, 'e', [line('CON'), line('RXP')], 'cash'],
    [-80, 'f', [line('EXT', '48')], 'current_account'],
    [-71, 'g', [line('BLA')], 'cards'],
    [-63, 'h', [line('COR', '21')], 'current_account'],
    [-55, 'i', [line('SEL', '16'), line('SEL', '26'), line('SEL', '36'), line('SEL', '46')], 'cash'],
    [-44, 'j', [line('EMC', '46')], 'current_account'],
    [-35, 'k', [line('ENM', '26')], 'current_account'],
    [-26, 'l', [line('LIM'), line('REV')], 'cards'],
    [-18, 'a', [line('EXQ', '38')], 'current_account'],
    [-9, 'b', [line('PLA')], 'current_account'],
    [-3, 'c', [line('COR', '36')], 'current_account'],
  ];
  // The insurer's monthly invoice (60 days to pay) and a radiograph billed twice (then a credit
  // note), issued in their place among the others: an issued invoice is never dated before the
  // last one of its point of sale (issue 35).
  const ospo = await customersService.create({ ctx, input: customerRecordContracts.create.parse(insurer) });
  const others: [number, () => Promise<unknown>][] = [
    [
      -40,
      () =>
        sale({
          documentType: 'invoice',
          customerId: ospo.id,
          date: addDays(today, -40),
          notes: 'Prestaciones del mes con autorización previa.',
          lines: [
            { ...line('LIM'), quantity: '6' },
            { ...line('EMP'), quantity: '4', description: 'Empastes (4 prestaciones)' },
          ],
        }),
    ],
    [
      -30,
      async () => {
        const mistaken = await sale({
          documentType: 'invoice',
          patientId: patient(5),
          date: addDays(today, -30),
          lines: [line('RXP', '11'), line('RXP', '11')],
        });
        await sale({
          documentType: 'credit_note',
          patientId: patient(5),
          date: addDays(today, -29),
          relatedDocumentId: mistaken.id,
          notes: 'Radiografía facturada dos veces.',
          lines: [line('RXP', '11')],
        });
      },
    ],
  ];
  const invoices: { id: string; total: string; patientId: string; date: string }[] = [];
  for (const [days, who, lines, condition] of plans) {
    while (others.length > 0 && (others[0]?.[0] ?? 0) <= days) await others.shift()?.[1]();
    const patientId = patient(who.charCodeAt(0) - 97);
    const date = addDays(today, days);
    const issued = await sale({
      documentType: 'invoice',
      patientId,
      date,
      conditionSale: condition,
      paymentMethod: condition === 'cash' ? 'cash_payment' : condition === 'cards' ? 'credit_card' : null,
      lines,
    });
    if (condition === 'current_account') invoices.push({ id: issued.id, total: issued.total, patientId, date });
  }
  // Most accounts paid: whole, in two instalments (cash then card), or half and still owing.
  for (const [index, invoice] of invoices.entries()) {
    const paidOn = addDays(invoice.date, 7);
    if (paidOn > today || index >= invoices.length - 2) continue;
    if (index === 0) {
      // Issue 35: one receipt for cash and a card at the desk (the first invoice on current account).
      const cash = (Math.round(Number(invoice.total) * 0.4) || 1).toFixed(2);
      await collect({
        patientId: invoice.patientId,
        date: paidOn,
        amount: invoice.total,
        parts: [
          { method: 'cash_payment', amount: cash },
          {
            method: 'debit_card',
            amount: (Number(invoice.total) - Number(cash)).toFixed(2),
            transactionNumber: `POS-${4300 + index}`,
          },
        ],
        allocations: [{ documentId: invoice.id, amount: invoice.total }],
      });
    } else if (index % 3 === 0) {
      await collect({
        patientId: invoice.patientId,
        date: paidOn,
        amount: invoice.total,
        method: 'bank_transfer',
        transactionNumber: `TRF-${1000 + index}`,
        allocations: [{ documentId: invoice.id, amount: invoice.total }],
      });
    } else if (index % 3 === 1) {
      const half = (Number(invoice.total) / 2).toFixed(2);
      const rest = (Number(invoice.total) - Number(half)).toFixed(2);
      await collect({
        patientId: invoice.patientId,
        date: paidOn,
        amount: half,
        method: 'cash_payment',
        allocations: [{ documentId: invoice.id, amount: half }],
      });
      const second = addDays(paidOn, 30);
      if (second <= today) {
        await collect({
          patientId: invoice.patientId,
          date: second,
          amount: rest,
          method: 'debit_card',
          transactionNumber: `POS-${4400 + index}`,
          allocations: [{ documentId: invoice.id, amount: rest }],
        });
      }
    }
  }
  // Money on account: a patient pays ahead of a treatment not yet invoiced.
  await collect({
    patientId: patient(4),
    date: addDays(today, -2),
    amount: '100000',
    method: 'cash_payment',
    notes: 'Seña de la corona.',
  });

  // Treatment plans: one accepted and partly invoiced, one rejected, one waiting for an answer.
  const accepted = await sale({
    documentType: 'budget',
    patientId: patient(6),
    date: addDays(today, -20),
    lines: [line('END', '46'), line('PER', '46'), line('COR', '46')],
  });
  await budgetsService.decide({
    ctx,
    id: accepted.id,
    input: budgetDecisionRequestSchema.parse({ decision: 'accepted', decidedOn: addDays(today, -18) }),
  });
  const rejected = await sale({
    documentType: 'budget',
    patientId: patient(7),
    date: addDays(today, -15),
    lines: [line('IMP', '36'), line('COR', '36')],
  });
  await budgetsService.decide({
    ctx,
    id: rejected.id,
    input: budgetDecisionRequestSchema.parse({
      decision: 'rejected',
      decidedOn: addDays(today, -10),
      notes: 'Prefiere consultarlo con su obra social.',
    }),
  });
  await sale({
    documentType: 'budget',
    patientId: patient(8),
    date: addDays(today, -4),
    lines: [line('ORI'), line('ORT'), line('ORT'), line('ORT')],
    notes: 'Plan de ortodoncia: instalación y tres controles.',
  });
}
