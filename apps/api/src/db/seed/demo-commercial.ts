import { providerContracts } from '@odontia/shared/schemas/providers';
import { providersService } from '../../features/providers/providers.service.ts';
import type { RequestContext } from '../../plugins/routes.ts';
import type { TenantTx } from '../tenancy.ts';
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

/** The demo's commercial area; purchases and payments append their steps here with the providers' ids. */
export async function seedDemoCommercial(
  tx: TenantTx,
  accountId: string,
  { administratorId }: { administratorId: string },
): Promise<{ providers: Record<DemoProviderKey, string> }> {
  const ctx = demoCommercialContext(tx, accountId, administratorId);
  const providers = await seedDemoProviders(ctx);
  return { providers };
}
