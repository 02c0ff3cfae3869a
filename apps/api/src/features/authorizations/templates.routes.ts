import {
  authorizationTemplateDeletedResponseSchema,
  authorizationTemplateParamsSchema,
  authorizationTemplateResponseSchema,
  authorizationTemplatesPageSchema,
  authorizationTemplatesQuerySchema,
  createAuthorizationTemplateRequestSchema,
  updateAuthorizationTemplateRequestSchema,
} from '@odontia/shared/schemas/authorizations';
import { recordChangesPageSchema, recordChangesQuerySchema } from '@odontia/shared/schemas/records';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/auth.ts';
import type { TemplatesService } from './templates.service.ts';

const tags = ['authorization templates'];
const security = [{ bearerAuth: [] }];
const base = '/authorization-templates';

/**
 * /api/authorization-templates (issue 6): clinicians read them (patients.read) to write an
 * authorization; administrators write them (settings.manage). Another clinic's id answers 404
 * authorization_template_not_found.
 */
export const templatesRoutes: FastifyPluginAsyncZod<{ service: TemplatesService }> = async (app, { service }) => {
  app.get(
    base,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: "The clinic's informed-consent templates by title (active=true: the ones to write from)",
        querystring: authorizationTemplatesQuerySchema,
        response: { 200: authorizationTemplatesPageSchema },
      },
    },
    async (request) => service.list(sessionOf(request), request.query),
  );

  app.get(
    `${base}/:id`,
    {
      config: { permission: 'patients.read' },
      schema: {
        tags,
        security,
        summary: 'One template',
        params: authorizationTemplateParamsSchema,
        response: { 200: authorizationTemplateResponseSchema },
      },
    },
    async (request) => ({ data: await service.get(sessionOf(request), request.params.id) }),
  );

  app.post(
    base,
    {
      config: { permission: 'settings.manage' },
      schema: {
        tags,
        security,
        summary: 'Add a template; an unknown {{placeholder}} in the body answers 400 (body: unknown_placeholder)',
        body: createAuthorizationTemplateRequestSchema,
        response: { 201: authorizationTemplateResponseSchema },
      },
    },
    async (request, reply) => {
      const data = await service.create(sessionOf(request), request.body, request.ip);
      return reply.status(201).send({ data, code: 'authorization_template_created' as const });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { permission: 'settings.manage' },
      schema: {
        tags,
        security,
        summary: 'Edit a template (title, body, active); 409 version_conflict when the version is stale',
        params: authorizationTemplateParamsSchema,
        body: updateAuthorizationTemplateRequestSchema,
        response: { 200: authorizationTemplateResponseSchema },
      },
    },
    async (request) => ({
      data: await service.update(sessionOf(request), request.params.id, request.body, request.ip),
      code: 'authorization_template_updated' as const,
    }),
  );

  app.delete(
    `${base}/:id`,
    {
      config: { permission: 'settings.manage' },
      schema: {
        tags,
        security,
        summary: 'Delete a template: hidden from now on; authorizations written from it keep their text',
        params: authorizationTemplateParamsSchema,
        response: { 200: authorizationTemplateDeletedResponseSchema },
      },
    },
    async (request) => {
      await service.remove(sessionOf(request), request.params.id, request.ip);
      return { code: 'authorization_template_deleted' as const };
    },
  );

  app.get(
    `${base}/:id/changes`,
    {
      config: { permission: 'settings.manage' },
      schema: {
        tags,
        security,
        summary: "The template's history of changes (audit events), newest first",
        params: authorizationTemplateParamsSchema,
        querystring: recordChangesQuerySchema,
        response: { 200: recordChangesPageSchema },
      },
    },
    async (request) => service.changes(sessionOf(request), request.params.id, request.query),
  );
};
