import { apiRoute } from '../api-route.ts';
import {
  apiTokenCreatedSchema,
  apiTokenPageSchema,
  apiTokenParamsSchema,
  apiTokenQuerySchema,
  apiTokenRevokedSchema,
  createApiTokenSchema,
  memberApiTokenPageSchema,
  memberApiTokenRevokedSchema,
} from '../schemas/api-tokens.ts';

/** A person's own API tokens (issue 42): /api/profile/api-tokens. */
export const personalTokenRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/profile/api-tokens',
    query: apiTokenQuerySchema,
    answer: apiTokenPageSchema,
  }),
  create: apiRoute({
    method: 'POST',
    path: '/profile/api-tokens',
    body: createApiTokenSchema,
    answer: apiTokenCreatedSchema,
    status: 201,
    idempotent: 'api-tokens.create',
  }),
  revoke: apiRoute({
    method: 'POST',
    path: '/profile/api-tokens/:tokenId/revoke',
    params: apiTokenParamsSchema,
    answer: apiTokenRevokedSchema,
  }),
};

/** The clinic's API tokens (issue 42), managed by its administrators: /api/api-tokens. */
export const clinicTokenRoutes = {
  list: apiRoute({ method: 'GET', path: '/api-tokens', query: apiTokenQuerySchema, answer: apiTokenPageSchema }),
  create: apiRoute({
    method: 'POST',
    path: '/api-tokens',
    body: createApiTokenSchema,
    answer: apiTokenCreatedSchema,
    status: 201,
    idempotent: 'api-tokens.create',
  }),
  revoke: apiRoute({
    method: 'POST',
    path: '/api-tokens/:tokenId/revoke',
    params: apiTokenParamsSchema,
    answer: apiTokenRevokedSchema,
  }),
};

/**
 * The team's personal tokens (issue 42), seen and revoked by the clinic's administrator
 * (`tokens.manage`): /api/api-tokens/members.
 */
export const memberTokenRoutes = {
  list: apiRoute({
    method: 'GET',
    path: '/api-tokens/members',
    query: apiTokenQuerySchema,
    answer: memberApiTokenPageSchema,
  }),
  revoke: apiRoute({
    method: 'POST',
    path: '/api-tokens/members/:tokenId/revoke',
    params: apiTokenParamsSchema,
    answer: memberApiTokenRevokedSchema,
  }),
};
