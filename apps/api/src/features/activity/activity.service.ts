import { can, type PermissionAction } from '@odontia/shared/permissions';
import type { ActivityEntry, ActivityQuery } from '@odontia/shared/schemas/activity';
import type { Actor, RequestContext } from '../../context.ts';
import * as repository from './activity.repository.ts';

/**
 * What a level may see of the clinic's activity: each audited entity belongs to the permission
 * that reads it. Sign-ins and sessions are security records, not activity: they stay out.
 */
const entitiesByPermission: Record<string, PermissionAction> = {
  patient: 'patients.read',
  attendance: 'patients.read',
  diagnosis: 'patients.read',
  laboratory: 'patients.read',
  prescription: 'patients.read',
  authorization: 'patients.read',
  file: 'patients.read',
  odontogram: 'patients.read',
  odontogram_entry: 'patients.read',
  authorization_template: 'clinical.write',
  medication: 'inventory.read',
  supply: 'inventory.read',
  inventory: 'inventory.read',
  user: 'users.manage',
};

export function visibleEntities(actor: Pick<Actor, 'level'>): string[] {
  return Object.entries(entitiesByPermission)
    .filter(([, permission]) => can(actor.level, permission))
    .map(([entity]) => entity);
}

export const activityService = {
  async latest({ ctx, query }: { ctx: RequestContext; query: ActivityQuery }): Promise<ActivityEntry[]> {
    const rows = await repository.latestEvents(ctx, visibleEntities(ctx), query.limit);
    return rows.map((row) => ({
      id: row.id,
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      patientId: row.patientId,
      patientName: row.patientId ? `${row.patientLastName}, ${row.patientFirstName}` : null,
      itemName: row.itemName,
      userName: row.userName,
      createdAt: row.createdAt.toISOString(),
    }));
  },
};
