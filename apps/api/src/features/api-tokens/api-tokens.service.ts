import { grantableScopes } from '@odontia/shared/permissions';
import {
  type ApiToken,
  apiTokenMaxLive,
  apiTokenPrefix,
  type createApiTokenSchema,
  type MemberApiToken,
} from '@odontia/shared/schemas/api-tokens';
import type { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { audit } from '../audit/audit.repository.ts';
import {
  type ApiTokenKindFilter,
  type ApiTokenRow,
  countLive,
  findToken,
  insertToken,
  markRevoked,
  pageTokens,
} from './api-tokens.repository.ts';

/**
 * API tokens (issue 42; docs/decisions.md "API tokens"). A personal token is its creator's and acts
 * at their level; a clinic token is made by an administrator and acts for the clinic at the
 * administrator level. Either holds only the actions its creator chose among those their level has
 * (`grantableScopes`). The secret is answered once; the row keeps its sha256 and its first 12
 * characters. Created and revoked are audited; a request made with a token records it on every
 * audit event it writes (plugins/routes.ts, audit.repository.ts).
 */

export type ApiTokenKind = 'personal' | 'clinic';
type CreateInput = z.output<typeof createApiTokenSchema>;

const dayMs = 86_400_000;
/** `odt_` and 8 characters of the secret: what the lists show. */
const prefixLength = apiTokenPrefix.length + 8;

const filterOf = (ctx: RequestContext, kind: ApiTokenKind): ApiTokenKindFilter =>
  kind === 'personal' ? { kind, userId: ctx.userId } : { kind };

export function presentToken(row: ApiTokenRow, at = new Date()): ApiToken {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    rateLimitPerMinute: row.rateLimitPerMinute,
    state: row.revokedAt ? 'revoked' : row.expiresAt <= at ? 'expired' : 'active',
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdByName: row.createdByName,
  };
}

/** A member's personal token as the administrator sees it: whose it is, never its secret. */
export function presentMemberToken(row: ApiTokenRow, at = new Date()): MemberApiToken {
  return { ...presentToken(row, at), ownerId: row.ownerId, ownerName: row.ownerName };
}

const membersFilter: ApiTokenKindFilter = { kind: 'members' };

export const apiTokensService = {
  async list({
    ctx,
    kind,
    query,
  }: {
    ctx: RequestContext;
    kind: ApiTokenKind;
    query: { page: number; pageSize: number };
  }) {
    const { rows, total } = await pageTokens(ctx, filterOf(ctx, kind), query);
    const at = new Date();
    return { data: rows.map((row) => presentToken(row, at)), total, page: query.page, pageSize: query.pageSize };
  },

  async create({ ctx, kind, input }: { ctx: RequestContext; kind: ApiTokenKind; input: CreateInput }) {
    // A patient's portal membership makes no tokens (its level has nothing a token may hold).
    if (ctx.level === 'customer' || ctx.patientId) throw new AppError('forbidden');
    // Never more than the creator's own level (a clinic token's creator is an administrator).
    const allowed = new Set<string>(grantableScopes(ctx.level));
    const refused = input.scopes.filter((scope) => !allowed.has(scope));
    if (refused.length > 0) throw new AppError('api_token_scope_invalid', { scopes: refused });
    const filter = filterOf(ctx, kind);
    const now = new Date();
    if ((await countLive(ctx, filter, now)) >= apiTokenMaxLive) {
      throw new AppError('api_token_limit_reached', { max: apiTokenMaxLive });
    }
    const secret = `${apiTokenPrefix}${newToken()}`;
    const id = newId();
    const expiresAt = new Date(now.getTime() + input.expiresInDays * dayMs);
    const row = {
      id,
      kind,
      userId: ctx.userId,
      name: input.name,
      tokenHash: hashToken(secret),
      prefix: secret.slice(0, prefixLength),
      scopes: input.scopes,
      rateLimitPerMinute: input.rateLimitPerMinute,
      expiresAt,
      createdBy: ctx.userId,
    };
    await insertToken(ctx, row);
    await audit(ctx, {
      action: 'api_token_created',
      entity: 'api_token',
      entityId: id,
      after: {
        kind,
        name: row.name,
        prefix: row.prefix,
        scopes: row.scopes,
        rateLimitPerMinute: row.rateLimitPerMinute,
        expiresAt: expiresAt.toISOString(),
      },
    });
    const stored = await findToken(ctx, filter, id);
    if (!stored) throw new AppError('api_token_not_found');
    return { data: presentToken(stored, now), secret, code: 'api_token_created' as const };
  },

  /** Revokes it at once (its next request answers 401); revoking a revoked token answers it as it is. */
  async revoke({ ctx, kind, tokenId }: { ctx: RequestContext; kind: ApiTokenKind; tokenId: string }) {
    const filter = filterOf(ctx, kind);
    const found = await findToken(ctx, filter, tokenId, true);
    if (!found) throw new AppError('api_token_not_found');
    if (!found.revokedAt) {
      await markRevoked(ctx, tokenId, ctx.userId);
      await audit(ctx, {
        action: 'api_token_revoked',
        entity: 'api_token',
        entityId: tokenId,
        before: { kind, name: found.name, prefix: found.prefix },
      });
    }
    const revoked = await findToken(ctx, filter, tokenId);
    if (!revoked) throw new AppError('api_token_not_found');
    return { data: presentToken(revoked), code: 'api_token_revoked' as const };
  },

  /** Every member's personal tokens (`tokens.manage`: the clinic's administrator), newest first. */
  async listMembers({ ctx, query }: { ctx: RequestContext; query: { page: number; pageSize: number } }) {
    const { rows, total } = await pageTokens(ctx, membersFilter, query);
    const at = new Date();
    return { data: rows.map((row) => presentMemberToken(row, at)), total, page: query.page, pageSize: query.pageSize };
  },

  /**
   * The administrator revokes a member's personal token: at once (its next request answers 401),
   * audited with the administrator as the actor and the owner in the event; revoking it again
   * answers it as it is; a clinic token, or another clinic's id, answers 404.
   */
  async revokeMember({ ctx, tokenId }: { ctx: RequestContext; tokenId: string }) {
    const found = await findToken(ctx, membersFilter, tokenId, true);
    if (!found) throw new AppError('api_token_not_found');
    if (!found.revokedAt) {
      await markRevoked(ctx, tokenId, ctx.userId);
      await audit(ctx, {
        action: 'api_token_revoked',
        entity: 'api_token',
        entityId: tokenId,
        before: {
          kind: 'personal',
          name: found.name,
          prefix: found.prefix,
          ownerId: found.ownerId,
          ownerName: found.ownerName,
        },
        after: { revokedBy: ctx.userId, byAdministrator: true },
      });
    }
    const revoked = await findToken(ctx, membersFilter, tokenId);
    if (!revoked) throw new AppError('api_token_not_found');
    return { data: presentMemberToken(revoked), code: 'api_token_revoked' as const };
  },
};
