import { cashRegisterRecord, cashSessionRoutes as declared } from '@odontia/shared/routes/cash-registers';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { loadPrintHeader } from '../../db/clinic-print-header.ts';
import { accounts } from '../../db/schema/index.ts';
import { printLanguage, sendPdf } from '../../lib/pdf.ts';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { cashRegistersService, cashSessionsService, cashSettingsService } from './cash-registers.service.ts';
import { zReportPdf } from './z-report.pdf.ts';

/**
 * Cash registers (cajas, issue 40): the registers (read with commercial.read, written with
 * settings.manage), their sessions (opened, moved and closed with commercial.write; every write
 * idempotent), the Z report and the clinic's cash setting (settings.manage).
 */
export const cashRegistersRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['cash-registers'] });
  const read = { permission: 'commercial.read', failureCode: 'error_get_cash_register' } as const;
  const manage = (
    failureCode: 'error_create_cash_register' | 'error_update_cash_register' | 'error_delete_cash_register',
  ) => ({ permission: 'settings.manage', failureCode }) as const;
  const readSession = { permission: 'commercial.read', failureCode: 'error_get_cash_session' } as const;

  recordRoutes(route, {
    declared: cashRegisterRecord,
    service: cashRegistersService,
    list: { ...read, summary: "The clinic's cash registers, by name" },
    get: { ...read, summary: 'One cash register' },
    create: {
      ...manage('error_create_cash_register'),
      summary: "Add a register (the front desk's or a professional's); 409 cash_register_exists for a taken name",
    },
    update: {
      ...manage('error_update_cash_register'),
      summary:
        'Edit or deactivate a register; 409 cash_register_in_use to deactivate one with an open session, 409 when stale',
    },
    remove: {
      ...manage('error_delete_cash_register'),
      summary: 'Delete a register (soft; its sessions stay); 409 cash_register_in_use with an open session',
    },
    changes: { ...read, summary: "The register's history of changes, newest first" },
  });

  route.serve(
    declared.state,
    {
      ...readSession,
      summary: 'The register, its open session with its figures per method, and the cash the last closing left',
    },
    async ({ ctx, params }) => ({ data: await cashSessionsService.state({ ctx, id: params.id }) }),
  );

  route.serve(
    declared.open,
    {
      permission: 'commercial.write',
      failureCode: 'error_open_cash_session',
      summary:
        'Open a session with the cash counted in the drawer (the difference with what the last closing left is recorded); 409 cash_session_already_open, also when raced',
    },
    async ({ ctx, params, body }) => ({
      data: await cashSessionsService.open({ ctx, id: params.id, input: body }),
      code: 'cash_session_opened' as const,
    }),
  );

  route.serve(
    declared.list,
    {
      ...readSession,
      summary: "The clinic's sessions and closings, newest first, by register, status and closing day",
    },
    ({ ctx, query }) => cashSessionsService.list({ ctx, query }),
  );

  route.serve(
    declared.get,
    { ...readSession, summary: 'One session: float, figures per method (expected, counted, difference), closing' },
    async ({ ctx, params }) => ({ data: await cashSessionsService.get({ ctx, id: params.id }) }),
  );

  route.serve(
    declared.movements,
    { ...readSession, summary: "The session's movements, newest first" },
    ({ ctx, params, query }) => cashSessionsService.movements({ ctx, id: params.id, query }),
  );

  route.serve(
    declared.addMovement,
    {
      permission: 'commercial.write',
      failureCode: 'error_create_cash_movement',
      summary: 'A manual income, expense or withdrawal to the bank with its reason; 409 cash_session_already_closed',
    },
    async ({ ctx, params, body }) => ({
      data: await cashSessionsService.addMovement({ ctx, id: params.id, input: body }),
      code: 'cash_movement_created' as const,
    }),
  );

  route.serve(
    declared.close,
    {
      permission: 'commercial.write',
      failureCode: 'error_close_cash_session',
      summary:
        'Close with the amount counted per method (every method with movements; an explanation when any differs): numbered Z-000001, final; 409 cash_session_already_closed',
    },
    async ({ ctx, params, body }) => ({
      data: await cashSessionsService.close({ ctx, id: params.id, input: body }),
      code: 'cash_session_closed' as const,
    }),
  );

  route.serve(
    declared.zReport,
    { ...readSession, summary: 'The Z report (PDF) of a session: partial while it is open', transaction: false },
    async ({ actor, params, reply }) => {
      const data = await app.db.withTenant(actor.accountId, async (tx) => {
        const ctx = { ...actor, tx };
        const printable = await cashSessionsService.printable({ ctx, id: params.id });
        const [clinic] = await tx
          .select({ language: accounts.defaultLanguage, currency: accounts.systemCurrency })
          .from(accounts)
          .where(eq(accounts.id, actor.accountId));
        return { ...printable, clinic: await loadPrintHeader(ctx), settings: clinic };
      });
      return sendPdf(
        reply,
        await zReportPdf({
          session: data.session,
          byKind: data.byKind.map((row) => ({
            kind: row.kind,
            method: row.method,
            count: row.count,
            amount: row.amount,
          })),
          movements: data.movements,
          clinic: data.clinic,
          language: printLanguage(data.settings?.language),
          currency: data.settings?.currency as never,
          timeZone: actor.timeZone,
        }),
      );
    },
  );

  route.serve(
    declared.settings,
    { permission: 'commercial.read', failureCode: 'error_get_cash_register', summary: "The clinic's cash rule" },
    async ({ ctx }) => ({ data: await cashSettingsService.get({ ctx }) }),
  );

  route.serve(
    declared.saveSettings,
    {
      permission: 'settings.manage',
      failureCode: 'error_update_cash_settings',
      summary: 'Whether a collection with a cash part needs an open register session; 409 when stale',
    },
    async ({ ctx, body }) => ({
      data: await cashSettingsService.save({ ctx, input: body }),
      code: 'cash_settings_updated' as const,
    }),
  );
};
