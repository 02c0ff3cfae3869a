import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { authorizationsRoutes } from './authorizations.routes.ts';
import { createAuthorizationsService } from './authorizations.service.ts';
import { templatesRoutes } from './templates.routes.ts';
import { createTemplatesService } from './templates.service.ts';

/** Treatment authorizations and their templates (issue 6): /api/authorization-templates, /api/patients/:patientId/authorizations. */
export const authorizationFeatureRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  await app.register(templatesRoutes, { service: createTemplatesService({ db }) });
  await app.register(authorizationsRoutes, { service: createAuthorizationsService({ db }) });
};
