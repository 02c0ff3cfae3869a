import { z } from 'zod';
import { instantText } from '../api-schema.ts';
import { tokenScopeActions } from '../permissions.ts';
import { requiredText } from '../validation.ts';
import { idSchema, pageSchema } from './common.ts';
import { pageQuerySchema } from './records.ts';

/**
 * API tokens for integrators (issue 42): a person's own (Mi perfil › Tokens de API) or the clinic's
 * (Administración › Tokens de API). The secret `odt_<43 base64url characters>` is answered once, at
 * creation; the server keeps its sha256 and its first characters (`prefix`) to show. Every token
 * expires (1–365 days), is limited per minute and holds a subset of its creator's actions.
 * docs/api.md "Tokens de API"; docs/decisions.md "API tokens (issue 42)".
 */

export const apiTokenPrefix = 'odt_';
export const apiTokenKinds = ['personal', 'clinic'] as const;
export type ApiTokenKind = (typeof apiTokenKinds)[number];
export const apiTokenStates = ['active', 'expired', 'revoked'] as const;
/** The longest a token may live, in days. */
export const apiTokenMaxDays = 365;
/** Requests a token may send per minute: the default and the bounds (the column's check). */
export const apiTokenRateLimit = { default: 120, min: 1, max: 600 } as const;
/** Live (neither expired nor revoked) tokens a person, or the clinic, may hold at once. */
export const apiTokenMaxLive = 20;

export const apiTokenScopeSchema = z.enum(tokenScopeActions as [string, ...string[]], 'invalid_value');

export const createApiTokenSchema = z.object({
  name: requiredText(80),
  scopes: z
    .array(apiTokenScopeSchema)
    .min(1, 'required')
    .max(tokenScopeActions.length, 'too_long')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'invalid_value'),
  expiresInDays: z.coerce.number().int('invalid_value').min(1, 'too_small').max(apiTokenMaxDays, 'too_big'),
  rateLimitPerMinute: z.coerce
    .number()
    .int('invalid_value')
    .min(apiTokenRateLimit.min, 'too_small')
    .max(apiTokenRateLimit.max, 'too_big')
    .default(apiTokenRateLimit.default),
});
export type CreateApiToken = z.input<typeof createApiTokenSchema>;

export const apiTokenSchema = z.object({
  id: idSchema,
  kind: z.enum(apiTokenKinds),
  name: z.string(),
  /** The secret's first characters (`odt_` and 8 more): enough to recognise it, never to use it. */
  prefix: z.string(),
  scopes: z.array(z.string()),
  rateLimitPerMinute: z.number().int(),
  state: z.enum(apiTokenStates),
  expiresAt: instantText(),
  lastUsedAt: instantText().nullable(),
  revokedAt: instantText().nullable(),
  createdAt: instantText(),
  createdByName: z.string().nullable(),
});
export type ApiToken = z.output<typeof apiTokenSchema>;

export const apiTokenPageSchema = pageSchema(apiTokenSchema);
export const apiTokenQuerySchema = pageQuerySchema;
export const apiTokenParamsSchema = z.object({ tokenId: idSchema });

/** The creation's answer: the only time the secret leaves the server. */
export const apiTokenCreatedSchema = z.object({
  data: apiTokenSchema,
  secret: z.string(),
  code: z.literal('api_token_created'),
});

export const apiTokenRevokedSchema = z.object({ data: apiTokenSchema, code: z.literal('api_token_revoked') });

/**
 * A member's personal token as the clinic's administrator sees it (`tokens.manage`, issue 42):
 * whose it is, and the same fields as the owner sees — never the secret or its hash.
 */
export const memberApiTokenSchema = apiTokenSchema.extend({
  ownerId: idSchema,
  ownerName: z.string().nullable(),
});
export type MemberApiToken = z.output<typeof memberApiTokenSchema>;
export const memberApiTokenPageSchema = pageSchema(memberApiTokenSchema);
export const memberApiTokenRevokedSchema = z.object({
  data: memberApiTokenSchema,
  code: z.literal('api_token_revoked'),
});
