import { authorizationTemplateRoutes as declared } from '@odontia/shared/routes/authorizations';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { templatesService } from './templates.service.ts';

/**
 * /api/authorization-templates (issue 6; certificate kinds, issue 24): clinicians read them
 * (patients.read) to write an authorization or a certificate; administrators write them (settings.manage). Another clinic's id answers 404
 * authorization_template_not_found.
 */
export const templatesRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['authorization templates'] });

  route.serve(
    declared.list,
    {
      permission: 'patients.read',
      summary:
        "The clinic's templates by title: kind=consent for authorizations, a certificate's kind for certificates, every kind without it (active=true: the ones to write from)",
    },
    ({ ctx, query }) => templatesService.list({ ctx, query }),
  );

  route.serve(declared.get, { permission: 'patients.read', summary: 'One template' }, async ({ ctx, params }) => ({
    data: await templatesService.get({ ctx, ...params }),
  }));

  route.serve(
    declared.create,
    {
      permission: 'settings.manage',
      summary: 'Add a template; an unknown {{placeholder}} in the body answers 400 (body: unknown_placeholder)',
    },
    async ({ ctx, body }) => ({
      data: await templatesService.create({ ctx, input: body }),
      code: 'authorization_template_created' as const,
    }),
  );

  route.serve(
    declared.update,
    {
      permission: 'settings.manage',
      summary: 'Edit a template (title, body, active); 409 version_conflict when the version is stale',
    },
    async ({ ctx, params, body }) => ({
      data: await templatesService.update({ ctx, ...params, input: body }),
      code: 'authorization_template_updated' as const,
    }),
  );

  route.serve(
    declared.remove,
    {
      permission: 'settings.manage',
      summary: 'Delete a template: hidden from now on; authorizations written from it keep their text',
    },
    async ({ ctx, params }) => {
      await templatesService.remove({ ctx, ...params });
      return { code: 'authorization_template_deleted' as const };
    },
  );

  route.serve(
    declared.changes,
    { permission: 'settings.manage', summary: "The template's history of changes (audit events), newest first" },
    ({ ctx, params, query }) => templatesService.changes({ ctx, ...params, query }),
  );
};
