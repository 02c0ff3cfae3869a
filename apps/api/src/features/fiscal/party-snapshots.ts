import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import { eq } from 'drizzle-orm';
import type { TxContext } from '../../context.ts';
import { clinicFiscalColumns, clinicParty } from '../../db/clinic-print-header.ts';
import { accounts, type providers } from '../../db/schema/index.ts';

/**
 * What a commercial document copies of its parties when it is registered or issued (issue 17):
 * the clinic's fiscal data and the provider's (a customer's in issue 18), as they are at that
 * moment. The document prints the copy, so a later change of address never rewrites it.
 */

export async function clinicSnapshot(ctx: TxContext): Promise<PartySnapshot> {
  const [clinic] = await ctx.tx.select(clinicFiscalColumns).from(accounts).where(eq(accounts.id, ctx.accountId));
  if (!clinic) throw new Error(`clinic ${ctx.accountId} not found`);
  return clinicParty(clinic);
}

export function providerSnapshot(provider: typeof providers.$inferSelect): PartySnapshot {
  const phone = [provider.phoneAreaBussines, provider.phoneBusiness].filter(Boolean).join(' ') || provider.phoneMobile;
  return {
    name: provider.fantasyName,
    legalName: provider.bussinesName,
    taxIdKind: provider.taxIdKind,
    taxId: provider.nif,
    fiscalCondition: provider.fiscalCondition,
    address: provider.commercialAddress,
    city: null,
    phone: phone || null,
    email: provider.email,
  };
}
