import type { FastifyInstance } from 'fastify';
import { bearer } from './clinics.ts';

/** Factories for the medical history tests (issue 5). */

let counter = 0;

/** A patient created through the API; answers its id. */
export async function createTestPatient(
  app: FastifyInstance,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  counter += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/patients',
    headers: bearer(token),
    payload: {
      firstName: 'Lucía',
      lastName: `Fernández ${counter}`,
      sex: 'female',
      birthdate: '1980-04-02',
      ...overrides,
    },
  });
  if (response.statusCode !== 201) throw new Error(`patient create failed: ${response.body}`);
  return response.json().data.id as string;
}
