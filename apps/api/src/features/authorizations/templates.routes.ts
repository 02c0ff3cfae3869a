import { authorizationTemplateRoutes as declared } from '@odontia/shared/routes/authorizations';
import type { FastifyPluginAsync } from 'fastify';
import { recordRoutes } from '../../plugins/record-routes.ts';
import { routes } from '../../plugins/routes.ts';
import { templatesService } from './templates.service.ts';

/**
 * /api/authorization-templates (issue 6; certificate kinds, issue 24): clinicians read them
 * (patients.read) to write an authorization or a certificate; administrators write them (settings.manage). Another clinic's id answers 404
 * authorization_template_not_found.
 */
export const templatesRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['authorization templates'] });

  const read = { permission: 'patients.read' } as const;
  const write = { permission: 'settings.manage' } as const;

  recordRoutes(route, {
    declared: { name: 'authorization_template', routes: declared },
    service: templatesService,
    list: {
      ...read,
      summary:
        "The clinic's templates by title: kind=consent for authorizations, a certificate's kind for certificates, every kind without it (active=true: the ones to write from)",
    },
    get: { ...read, summary: 'One template' },
    create: {
      ...write,
      summary: 'Add a template; an unknown {{placeholder}} in the body answers 400 (body: unknown_placeholder)',
    },
    update: {
      ...write,
      summary: 'Edit a template (title, body, active); 409 version_conflict when the version is stale',
    },
    remove: {
      ...write,
      summary: 'Delete a template: hidden from now on; authorizations written from it keep their text',
    },
    changes: { ...write, summary: "The template's history of changes (audit events), newest first" },
  });
};
