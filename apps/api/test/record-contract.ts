import { type PermissionAction, permissionMatrix } from '@odontia/shared/permissions';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.ts';
import type { TestClinicContext, TestResponse } from './test-clinic.ts';
import { expectAnswer } from './test-clinic.ts';

/**
 * The cases every record of the API answers the same way (issue 15), written once and run by
 * each record's test file: another clinic's id is 404 `<entity>_not_found` (another clinic's
 * patient `patient_not_found`), a stale version is 409 `version_conflict` with the current record
 * and changes nothing, a delete is soft (hidden everywhere, the row kept, audited) and each level
 * reads and writes as packages/shared/src/permissions.ts says. The record's own rules stay in
 * its file.
 */

export interface RecordRow {
  id: string;
  version: number;
  [field: string]: unknown;
}

export interface RecordContract {
  /** Singular, as in the codes: `diagnosis` → `diagnosis_created`, `diagnosis_not_found`. */
  entity: string;
  /** The table, to see a soft-deleted row is kept. */
  table: string;
  /** The collection's URL (under the patient for a patient's record). */
  collection: (patientId: string) => string;
  /** Whether the record belongs to a patient (`/api/patients/:patientId/…`). */
  patientScoped: boolean;
  /** The audit action of a create (default `<entity>_created`). */
  createdAction?: string;
  /** A valid create body. */
  body: (t: TestClinicContext) => Record<string, unknown>;
  /** Creates one through the API (default: POST `body` to the collection). */
  create?: (t: TestClinicContext, patientId: string, token: string) => Promise<TestResponse>;
  /** An edit: the body sent with the version, and what the answer shows after it. */
  update: {
    method?: 'PUT' | 'PATCH';
    body: (t: TestClinicContext) => Record<string, unknown>;
    /** What the edited record shows (default: the body). */
    shows?: Record<string, unknown>;
    /** A body that a stale request sends (default: the create body). */
    stale?: (t: TestClinicContext) => Record<string, unknown>;
    /** The 409 carries the current record in `details.current` (default true; inventory and users do not yet). */
    conflictShowsCurrent?: boolean;
  };
  /** `GET …/:id` exists (default true). */
  readOne?: boolean;
  /** `DELETE …/:id` exists and is soft: what the audit keeps as `before`. */
  softDelete?: { auditBefore: Record<string, unknown> };
  /** `GET …/:id/changes` exists: the first edit's before and after. */
  history?: { before: Record<string, unknown>; after: Record<string, unknown> };
  /** The permission actions that guard reading and writing (the history and the delete, when not `read` and `write`). */
  permissions: {
    read: PermissionAction;
    write: PermissionAction;
    history?: PermissionAction;
    delete?: PermissionAction;
  };
}

/** A route declared in packages/shared: where its collection is. */
interface DeclaredList {
  path: string;
}

/**
 * Where a record's collection is, read from its list route as declared in packages/shared: its
 * URL, and whether it is a patient's (declared under /patients/:patientId).
 */
export function declaredCollection(list: DeclaredList): Pick<RecordContract, 'collection' | 'patientScoped'> {
  return {
    collection: (patientId) => `/api${list.path.replace(':patientId', patientId)}`,
    patientScoped: list.path.startsWith('/patients/:patientId/'),
  };
}

/** A record declared with `recordApiRoutes` (packages/shared): its entity, its collection and whose it is. */
export function declaredRecord(declared: {
  name: string;
  routes: { list: DeclaredList };
}): Pick<RecordContract, 'entity' | 'collection' | 'patientScoped'> {
  return { entity: declared.name, ...declaredCollection(declared.routes.list) };
}

export function describeRecordContract(t: TestClinicContext, contract: RecordContract): void {
  const { entity } = contract;
  const notFound = `${entity}_not_found`;
  const scope = () => (contract.patientScoped ? t.patientId : '');
  const collection = (patientId = scope()) => contract.collection(patientId);
  const record = (id: string, patientId = scope()) => `${collection(patientId)}/${id}`;
  const updateMethod = contract.update.method ?? 'PUT';
  const readOne = contract.readOne ?? true;

  const post = (patientId = scope(), token = t.clinic.token) =>
    contract.create
      ? contract.create(t, patientId, token)
      : t.call('POST', collection(patientId), { token, body: contract.body(t) });
  async function create(patientId = scope(), token = t.clinic.token): Promise<RecordRow> {
    const response = await post(patientId, token);
    expect(response.statusCode, response.body).toBe(201);
    const { data } = response.json<{ data: RecordRow | RecordRow[] }>();
    return Array.isArray(data) ? (data[0] as RecordRow) : data;
  }
  const edit = (id: string, version: number, patientId = scope(), token = t.clinic.token) =>
    t.call(updateMethod, record(id, patientId), { token, body: { ...contract.update.body(t), version } });
  async function current(id: string): Promise<RecordRow | undefined> {
    if (readOne) return (await t.call('GET', record(id))).json<{ data: RecordRow }>().data;
    const list = await t.call('GET', `${collection()}?pageSize=100`);
    return list.json<{ data: RecordRow[] }>().data.find((row) => row.id === id);
  }

  describe(`the ${entity} record contract`, () => {
    it(`answers 404 ${notFound} for another clinic's ${entity}${contract.patientScoped ? ', patient_not_found for its patient' : ''} and an unknown id`, async () => {
      const created = await create();
      const otherClinic = { token: t.other.token };
      if (contract.patientScoped) {
        const theirPatient = await t.newPatient(t.other.token);
        expect((await t.call('GET', collection(theirPatient))).json().code).toBe('patient_not_found');
        const posted = await post(theirPatient);
        expect(posted.statusCode).toBe(404);
        expect(posted.json().code).toBe('patient_not_found');
        expect((await t.call('GET', record(created.id), otherClinic)).json().code).toBe('patient_not_found');
        expect((await t.call('GET', record(created.id, theirPatient), otherClinic)).json().code).toBe(notFound);
        // Another patient of the same clinic does not see it either.
        const sibling = await t.newPatient();
        if (readOne) expect((await t.call('GET', record(created.id, sibling))).json().code).toBe(notFound);
        const moved = await edit(created.id, created.version, sibling);
        expect(moved.statusCode).toBe(404);
        expect(moved.json().code).toBe(notFound);
        if (contract.softDelete) expect((await t.call('DELETE', record(created.id, sibling))).statusCode).toBe(404);
      } else {
        if (readOne) expect((await t.call('GET', record(created.id), otherClinic)).json().code).toBe(notFound);
        const theirs = await edit(created.id, created.version, scope(), t.other.token);
        expect(theirs.statusCode).toBe(404);
        expect(theirs.json().code).toBe(notFound);
        if (contract.softDelete) {
          expect((await t.call('DELETE', record(created.id), otherClinic)).json().code).toBe(notFound);
        }
        const list = await t.call('GET', `${collection()}?pageSize=100`, otherClinic);
        expect(list.json().data.map((row: RecordRow) => row.id)).not.toContain(created.id);
      }
      if (contract.history) {
        const changes = await t.call('GET', `${record(created.id)}/changes`, otherClinic);
        expect(changes.statusCode).toBe(404);
        expect(changes.json().code).toBe(contract.patientScoped ? 'patient_not_found' : notFound);
      }
      if (readOne) expect((await t.call('GET', record(newId()))).json().code).toBe(notFound);
      if (contract.softDelete) expect((await t.call('DELETE', record(newId()))).json().code).toBe(notFound);
      expect((await edit(newId(), 1)).json().code).toBe(notFound);
      // Nothing changed through the other clinic.
      expect((await current(created.id))?.version).toBe(created.version);
    });

    if (contract.patientScoped) {
      it(`answers patient_not_found for the ${entity} records of a deleted patient`, async () => {
        const doomed = await t.newPatient();
        const kept = await create(doomed);
        expect((await t.call('DELETE', `/api/patients/${doomed}`)).statusCode).toBe(200);
        const gone = await t.call('GET', readOne ? record(kept.id, doomed) : collection(doomed));
        expect(gone.statusCode).toBe(404);
        expect(gone.json().code).toBe('patient_not_found');
      });
    }

    it('edits with the version; a stale one answers 409 version_conflict (with the current record) and changes nothing', async () => {
      const created = await create();
      const shows = contract.update.shows ?? contract.update.body(t);
      const first = await edit(created.id, created.version);
      expectAnswer(first, 200, {
        code: `${entity}_updated`,
        data: { ...shows, version: created.version + 1 },
      });
      const staleBody = contract.update.stale?.(t) ?? contract.body(t);
      const stale = await t.call(updateMethod, record(created.id), {
        body: { ...staleBody, version: created.version },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject(
        contract.update.conflictShowsCurrent === false
          ? { code: 'version_conflict' }
          : { code: 'version_conflict', details: { current: { ...shows, version: created.version + 1 } } },
      );
      expect(await current(created.id)).toMatchObject({ ...shows, version: created.version + 1 });
      if (contract.history) {
        const changes = await t.call('GET', `${record(created.id)}/changes`);
        expect(changes.statusCode).toBe(200);
        expect(changes.json()).toMatchObject({
          total: 2,
          data: [
            { action: `${entity}_updated`, ...contract.history },
            { action: contract.createdAction ?? `${entity}_created`, before: null },
          ],
        });
        expect(changes.json().data[0].userName).toMatch(/^Ana Pérez/);
      }
    });

    const { softDelete } = contract;
    if (softDelete) {
      it('deletes softly: hidden from the list, get and changes, the row kept with who, audited; the app role cannot DELETE', async () => {
        const created = await create();
        const removed = await t.call('DELETE', record(created.id));
        expect(removed.statusCode, removed.body).toBe(200);
        expect(removed.json()).toEqual({ code: `${entity}_deleted` });
        const get = await t.call('GET', record(created.id));
        expect(get.statusCode).toBe(404);
        expect(get.json().code).toBe(notFound);
        if (contract.history) expect((await t.call('GET', `${record(created.id)}/changes`)).statusCode).toBe(404);
        expect((await t.call('DELETE', record(created.id))).statusCode).toBe(404);
        const list = await t.call('GET', `${collection()}?pageSize=100`);
        expect(list.json().data.map((row: RecordRow) => row.id)).not.toContain(created.id);
        const table = sql.identifier(contract.table);
        const { rows } = await t.db.orm.execute<{ deleted_by: string }>(
          sql`select deleted_by from ${table} where id = ${created.id} and deleted_at is not null`,
        );
        expect(rows).toEqual([{ deleted_by: t.clinic.userId }]);
        const events = await t.auditEvents(`${entity}_deleted`);
        expect(events.find((row) => row.entityId === created.id)?.before).toMatchObject(softDelete.auditBefore);
        await expect(
          t.db.withTenant(t.clinic.accountId, (tx) => tx.execute(sql`delete from ${table} where id = ${created.id}`)),
        ).rejects.toThrow();
      });
    }

    it.each(['administrator', 'supervisor', 'user', 'customer'] as const)(
      `as %s: reads and writes ${entity} records as the permission matrix says`,
      async (level) => {
        const reads = permissionMatrix[level].has(contract.permissions.read);
        const writes = permissionMatrix[level].has(contract.permissions.write);
        const deletes = permissionMatrix[level].has(contract.permissions.delete ?? contract.permissions.write);
        const target = await create();
        const doomed = contract.softDelete ? await create() : undefined;
        const expectStatus = (response: TestResponse, allowed: boolean, ok: number, what: string) => {
          expect(response.statusCode, `${level} ${what} → ${response.body}`).toBe(allowed ? ok : 403);
          if (!allowed) expect(response.json().code).toBe('forbidden');
        };
        await t.asLevel(level, async () => {
          expectStatus(await t.call('GET', collection()), reads, 200, 'list');
          if (readOne) expectStatus(await t.call('GET', record(target.id)), reads, 200, 'get');
          if (contract.history) {
            const readsHistory = permissionMatrix[level].has(contract.permissions.history ?? contract.permissions.read);
            expectStatus(await t.call('GET', `${record(target.id)}/changes`), readsHistory, 200, 'changes');
          }
          expectStatus(await post(), writes, 201, 'create');
          expectStatus(await edit(target.id, target.version), writes, 200, 'edit');
          if (doomed) expectStatus(await t.call('DELETE', record(doomed.id)), deletes, 200, 'delete');
        });
        // A refused edit changed nothing.
        expect((await current(target.id))?.version).toBe(writes ? target.version + 1 : target.version);
      },
    );
  });
}
