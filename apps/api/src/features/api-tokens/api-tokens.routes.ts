import { clinicTokenRoutes, memberTokenRoutes, personalTokenRoutes } from '@odontia/shared/routes/api-tokens';
import type { FastifyPluginAsync } from 'fastify';
import { routes } from '../../plugins/routes.ts';
import { type ApiTokenKind, apiTokensService as service } from './api-tokens.service.ts';

/**
 * API tokens (issue 42): a person's own under /api/profile/api-tokens (profile.manage), the
 * clinic's under /api/api-tokens (users.manage: the administrators). Every route is a session's
 * only (`sessionOnly`): a token never lists, makes or revokes tokens. The team's personal tokens
 * under /api/api-tokens/members (tokens.manage: the clinic's administrator sees and revokes them).
 */
export const apiTokensRoutes: FastifyPluginAsync = async (app) => {
  const route = routes(app, { tags: ['api tokens'] });
  const sides: [
    ApiTokenKind,
    typeof personalTokenRoutes | typeof clinicTokenRoutes,
    'profile.manage' | 'users.manage',
  ][] = [
    ['personal', personalTokenRoutes, 'profile.manage'],
    ['clinic', clinicTokenRoutes, 'users.manage'],
  ];
  for (const [kind, declared, permission] of sides) {
    const whose = kind === 'personal' ? "The signed-in person's" : "The clinic's";
    route.serve(
      declared.list,
      {
        permission,
        sessionOnly: true,
        failureCode: 'error_get_api_token',
        summary: `${whose} API tokens, newest first (never their secrets: a prefix to recognise each)`,
      },
      ({ ctx, query }) => service.list({ ctx, kind, query }),
    );
    route.serve(
      declared.create,
      {
        permission,
        sessionOnly: true,
        failureCode: 'error_create_api_token',
        summary: `Make ${kind === 'personal' ? 'a personal' : 'a clinic'} API token: its scopes (actions of the creator's level), expiry (1–365 days) and limit per minute. The secret is in this answer only`,
      },
      ({ ctx, body }) => service.create({ ctx, kind, input: body }),
    );
    route.serve(
      declared.revoke,
      {
        permission,
        sessionOnly: true,
        failureCode: 'error_revoke_api_token',
        summary: `Revoke one of ${whose.toLowerCase()} API tokens: its next request answers 401; another clinic's id answers 404`,
      },
      ({ ctx, params }) => service.revoke({ ctx, kind, tokenId: params.tokenId }),
    );
  }
  route.serve(
    memberTokenRoutes.list,
    {
      permission: 'tokens.manage',
      sessionOnly: true,
      failureCode: 'error_get_api_token',
      summary:
        "The clinic members' personal API tokens, newest first: whose, name, prefix, scopes, dates and state (never their secrets)",
    },
    ({ ctx, query }) => service.listMembers({ ctx, query }),
  );
  route.serve(
    memberTokenRoutes.revoke,
    {
      permission: 'tokens.manage',
      sessionOnly: true,
      failureCode: 'error_revoke_api_token',
      summary:
        "Revoke a member's personal API token (audited: who revoked whose): its next request answers 401; revoking it again answers it as it is; a clinic token or another clinic's id answers 404",
    },
    ({ ctx, params }) => service.revokeMember({ ctx, tokenId: params.tokenId }),
  );
};
