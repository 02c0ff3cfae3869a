import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { apiSignIn, demoUsers } from './real-users';
import { rootServer } from './servers';

/*
 * The demo clinic through its API, as its administrator: what a spec prepares or checks without
 * the browser (a patient of its own, a medicine, a count of rows).
 */

export async function adminHeaders(request: APIRequestContext): Promise<{ Authorization: string }> {
  return { Authorization: `Bearer ${await apiSignIn(request, demoUsers.administrator)}` };
}

/** GET `path` (e.g. 'api/patients?pageSize=5') as the administrator; answers the JSON body. */
export async function apiGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(rootServer.url(path), { headers: await adminHeaders(request) });
  expect(response.status(), `GET ${path}`).toBe(200);
  return (await response.json()) as T;
}

/**
 * The id of the row of the list at `path` (a search, as the administrator) whose `field` is
 * `value`; `what` names it when there is none.
 */
export async function idOfRow(
  request: APIRequestContext,
  path: string,
  match: { field: string; value: string },
  what: string,
): Promise<string> {
  const body = await apiGet<{ data: ({ id: string } & Record<string, unknown>)[] }>(request, path);
  const row = body.data.find((candidate) => candidate[match.field] === match.value);
  expect(row, what).toBeTruthy();
  return row?.id ?? '';
}

/**
 * POST `data` to `path` as the administrator, expecting 201; answers the created record. Each call
 * carries a fresh Idempotency-Key (the writes that create a document or move money require one).
 */
export async function apiCreate<T = { id: string }>(
  request: APIRequestContext,
  path: string,
  data: object,
): Promise<T> {
  const headers = { ...(await adminHeaders(request)), 'Idempotency-Key': randomUUID() };
  const response = await request.post(rootServer.url(path), { headers, data });
  expect(response.status(), `POST ${path}: ${await response.text()}`).toBe(201);
  return ((await response.json()) as { data: T }).data;
}

/** A patient of the test's own; answers its id. */
export async function createPatient(
  request: APIRequestContext,
  fields: { firstName: string; lastName: string; sex: string; birthdate: string; [field: string]: unknown },
): Promise<string> {
  return (await apiCreate(request, 'api/patients', fields)).id;
}

/** The demo clinic's patients (first page of 100). */
export async function demoPatients<T extends { id: string }>(request: APIRequestContext, pageSize = 100): Promise<T[]> {
  return (await apiGet<{ data: T[] }>(request, `api/patients?pageSize=${pageSize}`)).data;
}

/** The `total` of a list answer. */
export async function totalOf(request: APIRequestContext, path: string): Promise<number> {
  return (await apiGet<{ total: number }>(request, path)).total;
}
