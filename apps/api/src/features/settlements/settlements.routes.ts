import type { Language } from '@odontia/shared/enums';
import { settlementRoutes as declared, settlementRuleRecord } from '@odontia/shared/routes/settlements';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { accounts } from '../../db/schema/index.ts';
import { printLanguage, sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { settlementPdf } from './settlement.pdf.ts';
import { settlementsService as service, settlementRulesService } from './settlements.service.ts';

/**
 * Professional settlements (issue 40): /api/settlement-rules and /api/settlements (preview,
 * confirm, list, one, PDF).
 */
export const settlementsRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['settlements'] });
  // What each professional earns is pay data: read with the reports (supervisor, administrator);
  // the rules and the confirmation are the administrator's (docs/permissions.md). Paying the payable
  // is an ordinary provider payment (commercial.write).
  const read = { permission: 'reports.read' } as const;
  const write = { permission: 'settings.manage' } as const;

  recordRoutes(route, {
    declared: settlementRuleRecord,
    service: settlementRulesService,
    list: {
      ...read,
      failureCode: 'error_get_settlement_rule',
      summary: "The professionals' settlement rules (professionalId filters), newest validity first",
    },
    get: { ...read, failureCode: 'error_get_settlement_rule', summary: 'One settlement rule' },
    create: {
      ...write,
      failureCode: 'error_create_settlement_rule',
      summary:
        'Add a rule: a treatment, a group or the default; a percentage or a fixed amount per unit; on invoiced or collected; lab cost deducted or not; valid from a date (409 settlement_rule_exists)',
    },
    update: {
      ...write,
      failureCode: 'error_update_settlement_rule',
      summary: 'Edit a rule; 409 version_conflict when stale. Settlements already confirmed keep what they applied',
    },
    remove: { ...write, failureCode: 'error_delete_settlement_rule', summary: 'Delete a rule (soft, audited)' },
    changes: { ...read, summary: "The rule's history of changes, newest first" },
  });

  route.serve(
    declared.list,
    {
      ...read,
      failureCode: 'error_get_settlement',
      summary: "The clinic's settlements, newest period first (professionalId, status pending|paid)",
    },
    ({ ctx, query }) => service.list({ ctx, query }),
  );

  route.serve(
    declared.preview,
    {
      ...read,
      failureCode: 'error_get_settlement',
      summary:
        "What confirming a professional's period would settle: its lines (the first 1,000), totals and whether a settlement covers part of it; nothing is written",
    },
    async ({ ctx, query }) => ({ data: await service.preview({ ctx, query }) }),
  );

  route.serve(
    declared.one,
    {
      ...read,
      failureCode: 'error_get_settlement',
      summary: 'One settlement with every line and what is still to pay',
    },
    async ({ ctx, params }) => ({ data: await service.get({ ctx, id: params.id }) }),
  );

  route.serve(
    declared.confirm,
    {
      ...write,
      failureCode: 'error_create_settlement',
      summary:
        "Confirm a professional's period (Idempotency-Key required): the numbered settlement, its lines and its payable in the professional's provider account; 409 settlement_period_settled, settlement_preview_stale, settlement_empty, settlement_negative",
    },
    ({ ctx, body }) => service.confirm({ ctx, input: body }),
  );

  route.serve(
    declared.pdf,
    {
      ...read,
      failureCode: 'error_get_settlement',
      summary: 'The settlement as a PDF, in the clinic’s language',
      transaction: false,
    },
    async ({ actor, params, reply }) => {
      const printable = await app.db.withTenant(actor.accountId, async (tx) => {
        const ctx = { ...actor, tx };
        const settlement = await service.get({ ctx, id: params.id, allLines: true });
        const clinic = await loadPrintHeader(ctx);
        const [account] = await tx
          .select({ language: accounts.defaultLanguage })
          .from(accounts)
          .where(eq(accounts.id, actor.accountId));
        return { settlement, clinic, language: printLanguage(account?.language) as Language };
      });
      return sendPdf(reply, await settlementPdf(printable));
    },
  );
};
