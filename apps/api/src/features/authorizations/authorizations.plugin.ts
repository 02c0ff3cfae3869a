import type { FastifyPluginAsync } from 'fastify';
import { authorizationsRoutes } from './authorizations.routes.ts';
import { templatesRoutes } from './templates.routes.ts';

/** Treatment authorizations and their templates (issue 6): /api/authorization-templates, /api/patients/:patientId/authorizations. */
export const authorizationFeatureRoutes: FastifyPluginAsync = async (app) => {
  await app.register(templatesRoutes);
  await app.register(authorizationsRoutes);
};
