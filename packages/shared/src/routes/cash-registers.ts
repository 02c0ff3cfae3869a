import { apiRoute } from '../api-route.ts';
import {
  cashMovementPageSchema,
  cashRegisterContracts,
  cashRegisterStateSchema,
  cashSessionListQuerySchema,
  cashSessionPageSchema,
  cashSessionParamsSchema,
  cashSessionResponseSchema,
  cashSettingsResponseSchema,
  closeCashSessionSchema,
  createCashMovementSchema,
  openCashSessionSchema,
  updateCashSettingsSchema,
} from '../schemas/cash-registers.ts';
import { pageQuerySchema, recordParamsSchema } from '../schemas/records.ts';
import { recordApiRoutes } from './records.ts';

/** The clinic's cash registers (cajas, issue 40): /api/cash-registers. */
export const cashRegisterRecord = recordApiRoutes({
  path: '/cash-registers',
  contracts: cashRegisterContracts,
});

/** A register's sessions, their movements and closings, the Z report and the clinic's cash setting. */
export const cashSessionRoutes = {
  state: apiRoute({
    method: 'GET',
    path: '/cash-registers/:id/state',
    params: recordParamsSchema,
    answer: cashRegisterStateSchema,
  }),
  open: apiRoute({
    method: 'POST',
    path: '/cash-registers/:id/sessions',
    params: recordParamsSchema,
    body: openCashSessionSchema,
    answer: cashSessionResponseSchema,
    status: 201,
    idempotent: 'cash_sessions.open',
  }),
  list: apiRoute({
    method: 'GET',
    path: '/cash-sessions',
    query: cashSessionListQuerySchema,
    answer: cashSessionPageSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: '/cash-sessions/:id',
    params: cashSessionParamsSchema,
    answer: cashSessionResponseSchema,
  }),
  movements: apiRoute({
    method: 'GET',
    path: '/cash-sessions/:id/movements',
    params: cashSessionParamsSchema,
    query: pageQuerySchema,
    answer: cashMovementPageSchema,
  }),
  addMovement: apiRoute({
    method: 'POST',
    path: '/cash-sessions/:id/movements',
    params: cashSessionParamsSchema,
    body: createCashMovementSchema,
    answer: cashSessionResponseSchema,
    status: 201,
    idempotent: 'cash_sessions.movement',
  }),
  close: apiRoute({
    method: 'POST',
    path: '/cash-sessions/:id/close',
    params: cashSessionParamsSchema,
    body: closeCashSessionSchema,
    answer: cashSessionResponseSchema,
    idempotent: 'cash_sessions.close',
  }),
  zReport: apiRoute({
    method: 'GET',
    path: '/cash-sessions/:id/z-report.pdf',
    params: cashSessionParamsSchema,
    produces: ['application/pdf'],
  }),
  settings: apiRoute({ method: 'GET', path: '/settings/cash', answer: cashSettingsResponseSchema }),
  saveSettings: apiRoute({
    method: 'PUT',
    path: '/settings/cash',
    body: updateCashSettingsSchema,
    answer: cashSettingsResponseSchema,
  }),
};
