import { apiRoute } from '../api-route.ts';
import {
  authorizationDeletedResponseSchema,
  authorizationListQuerySchema,
  authorizationResponseSchema,
  authorizationsPageSchema,
  authorizationTemplateDeletedResponseSchema,
  authorizationTemplateParamsSchema,
  authorizationTemplateResponseSchema,
  authorizationTemplatesPageSchema,
  authorizationTemplatesQuerySchema,
  authorizationVerificationSchema,
  createAuthorizationRequestSchema,
  createAuthorizationTemplateRequestSchema,
  signAuthorizationRequestSchema,
  unsignAuthorizationRequestSchema,
  updateAuthorizationRequestSchema,
  updateAuthorizationTemplateRequestSchema,
} from '../schemas/authorizations.ts';
import {
  patientParamsSchema,
  patientRecordParamsSchema,
  recordChangesPageSchema,
  recordChangesQuerySchema,
} from '../schemas/records.ts';

const base = '/patients/:patientId/authorizations';
const one = `${base}/:id` as const;
const params = patientRecordParamsSchema;
const answer = authorizationResponseSchema;

/** /api/patients/:patientId/authorizations (issue 6). */
export const authorizationRoutes = {
  list: apiRoute({
    method: 'GET',
    path: base,
    params: patientParamsSchema,
    query: authorizationListQuerySchema,
    answer: authorizationsPageSchema,
  }),
  get: apiRoute({ method: 'GET', path: one, params, answer }),
  create: apiRoute({
    method: 'POST',
    path: base,
    params: patientParamsSchema,
    body: createAuthorizationRequestSchema,
    answer,
    status: 201,
  }),
  update: apiRoute({ method: 'PUT', path: one, params, body: updateAuthorizationRequestSchema, answer }),
  remove: apiRoute({ method: 'DELETE', path: one, params, answer: authorizationDeletedResponseSchema }),
  sign: apiRoute({ method: 'POST', path: `${one}/sign`, params, body: signAuthorizationRequestSchema, answer }),
  unsign: apiRoute({ method: 'POST', path: `${one}/unsign`, params, body: unsignAuthorizationRequestSchema, answer }),
  verify: apiRoute({ method: 'GET', path: `${one}/verify`, params, answer: authorizationVerificationSchema }),
  pdf: apiRoute({ method: 'GET', path: `${one}/pdf`, params, produces: ['application/pdf'] }),
  changes: apiRoute({
    method: 'GET',
    path: `${one}/changes`,
    params,
    query: recordChangesQuerySchema,
    answer: recordChangesPageSchema,
  }),
};

const templates = '/authorization-templates';
const template = `${templates}/:id` as const;

/** /api/authorization-templates (issue 6; certificate kinds, issue 24). */
export const authorizationTemplateRoutes = {
  list: apiRoute({
    method: 'GET',
    path: templates,
    query: authorizationTemplatesQuerySchema,
    answer: authorizationTemplatesPageSchema,
  }),
  get: apiRoute({
    method: 'GET',
    path: template,
    params: authorizationTemplateParamsSchema,
    answer: authorizationTemplateResponseSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: templates,
    body: createAuthorizationTemplateRequestSchema,
    answer: authorizationTemplateResponseSchema,
    status: 201,
  }),
  update: apiRoute({
    method: 'PUT',
    path: template,
    params: authorizationTemplateParamsSchema,
    body: updateAuthorizationTemplateRequestSchema,
    answer: authorizationTemplateResponseSchema,
  }),
  remove: apiRoute({
    method: 'DELETE',
    path: template,
    params: authorizationTemplateParamsSchema,
    answer: authorizationTemplateDeletedResponseSchema,
  }),
  changes: apiRoute({
    method: 'GET',
    path: `${template}/changes`,
    params: authorizationTemplateParamsSchema,
    query: recordChangesQuerySchema,
    answer: recordChangesPageSchema,
  }),
};
