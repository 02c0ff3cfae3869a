import { accountRoutes as declared } from '@odontia/shared/routes/account';
import type { FastifyPluginAsync } from 'fastify';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { sendPdf } from '../../lib/pdf.ts';
import { idempotencyKeyOf } from '../../plugins/idempotency.ts';
import { routes } from '../../plugins/routes.ts';
import * as repository from './account.repository.ts';
import type { AccountService } from './account.service.ts';
import { accountMovementPdf } from './account-movement.pdf.ts';

/**
 * My account (issue 19): /api/account and its movements, renewal and billing data, for
 * account.manage (administrators) only. Renewing works on a read-only clinic (it is how the
 * clinic gets out of it): `allowReadOnly`.
 */
const useFiscalOf = (account: { billing: { useFiscalData: boolean } }) => account.billing.useFiscalData;

export const accountRoutes: FastifyPluginAsync<{ service: AccountService }> = async (app, { service }) => {
  const route = routes(app, { tags: ['account'] });
  const read = { permission: 'account.manage', failureCode: 'error_get_account' } as const;
  const write = { permission: 'account.manage', failureCode: 'error_update_account' } as const;

  route.serve(
    declared.get,
    {
      ...read,
      summary:
        "The clinic as Odontia's customer: commercial and billing data, plan with its limits and usage, contract period, due date and state (active, grace, read_only)",
    },
    async ({ ctx }) => ({ data: await service.get({ ctx }) }),
  );

  route.serve(
    declared.updateBilling,
    {
      ...write,
      summary:
        "Edit the clinic's commercial and billing data (audited as account_billing_updated); 409 version_conflict with details.current when stale",
    },
    async ({ ctx, body }) => ({
      data: await service.updateBilling({ ctx, input: body }),
      code: 'account_billing_updated' as const,
    }),
  );

  route.serve(
    declared.movements,
    {
      ...read,
      summary: "The clinic's charges, payments and renewal orders with Odontia, newest first (paginated)",
    },
    async ({ ctx, query }) => service.movements({ ctx, query }),
  );

  route.serve(
    declared.movement,
    {
      ...read,
      summary: 'One movement; 404 account_movement_not_found',
    },
    async ({ ctx, params }) => ({ data: await service.movement({ ctx, id: params.id }) }),
  );

  route.serve(
    declared.movementPdf,
    {
      ...read,
      summary: "One movement as a PDF in the clinic's language; 404 account_movement_not_found",
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const print = await app.db.withTenant(actor.accountId, async (tx) => {
        const ctx = { ...actor, tx };
        const movement = await service.movement({ ctx, id: params.id });
        const account = await service.get({ ctx });
        const row = await repository.findAccount(ctx);
        const header = useFiscalOf(account) ? await loadPrintHeader(ctx) : null;
        const useFiscal = account.billing.useFiscalData;
        const b = account.billing;
        const f = account.fiscal;
        const join = (...parts: (string | null)[]) => parts.filter(Boolean).join(', ') || null;
        return {
          movement,
          planName: account.plans.find((plan) => plan.id === movement.plan)?.name ?? null,
          customer: useFiscal
            ? {
                name: f.legalName ?? account.commercial.clinicName,
                taxId: f.taxId,
                taxIdKind: header?.taxIdKind ?? null,
                address: join(f.address, f.city),
                email: b.billingEmail,
              }
            : {
                name: b.billingLegalName ?? account.commercial.clinicName,
                taxId: b.billingTaxId,
                taxIdKind: null,
                address: join(b.billingAddress, b.billingPostalCode, b.billingCity, b.billingCountry),
                email: b.billingEmail,
              },
          language: row.defaultLanguage,
        };
      });
      return sendPdf(reply, await accountMovementPdf(print));
    },
  );

  route.serve(
    declared.renew,
    {
      ...write,
      failureCode: 'error_renew_account',
      summary:
        "Order the renewal of one period of the plan through the payment provider's adapter (Idempotency-Key required; audited as account_renewal_ordered). Lifts read-only at once (a new grace period); the payment extends the contract. 409 plan_not_available, 409 account_renewal_pending",
      allowReadOnly: true,
    },
    async ({ ctx, body, request }) => ({
      data: await service.renew({ ctx, input: body, idempotencyKey: idempotencyKeyOf(request) }),
      code: 'account_renewal_ordered' as const,
    }),
  );
};
