import type { UserLevel } from '@odontia/shared/enums';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.ts';
import type { MemoryMailer } from './mail.ts';

/** Factories: a clinic signed up, activated and signed in through the real endpoints. */

export const testPassword = 'muelas-de-gato-azul-42';
let counter = 0;

export interface TestClinic {
  accountId: string;
  userId: string;
  email: string;
  token: string;
}

export function signUpBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    completeName: `Ana Pérez ${counter}`,
    email: `ana.${counter}.${Date.now()}@clinica.test`,
    password: testPassword,
    passwordConfirmation: testPassword,
    clinicName: `Clínica ${counter}`,
    contact: '+54 11 4444-5555',
    acceptTerms: true,
    ...overrides,
  };
}

export async function signIn(app: FastifyInstance, email: string, password = testPassword, remember = false) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in',
    payload: { email, password, remember },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
  return response.json().data as { token: string; expiresAt: string; user: { id: string; account: { id: string } } };
}

export async function createTestClinic(
  app: FastifyInstance,
  mailer: MemoryMailer,
  overrides: Record<string, unknown> = {},
): Promise<TestClinic> {
  const body = signUpBody(overrides);
  const signUp = await app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: body });
  if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
  const activation = await app.inject({
    method: 'POST',
    url: `/api/auth/activation/${mailer.tokenFor(body.email)}`,
  });
  if (activation.statusCode !== 200) throw new Error(`activation failed: ${activation.body}`);
  const session = await signIn(app, body.email, String(body.password));
  return { accountId: session.user.account.id, userId: session.user.id, email: body.email, token: session.token };
}

/**
 * Test shortcut (superuser connection): changes a user's level in place. A customer membership belongs to a patient (issue 37,
 * `users_patient_customer`): making one gives it a patient of its own for the while, leaving it
 * takes it away.
 */
export async function setLevel(db: Database, userId: string, level: UserLevel): Promise<void> {
  if (level === 'customer') {
    await db.orm.execute(sql`insert into patients (account_id, id, sku_patient, first_name, last_name, sex, birthdate)
      select account_id, ${userId}::uuid, 'LEVEL-' || ${userId}, 'Paciente', 'De prueba', 'female', '1990-01-01'
      from users where id = ${userId}::uuid
      on conflict (account_id, id) do update set deleted_at = null`);
  }
  await db.orm.execute(sql`update users set level = ${level},
    patient_id = case when ${level} = 'customer' then ${userId}::uuid end
    where id = ${userId}::uuid`);
  // Back to staff: the helper's patient goes, so no later list or count of the clinic sees it;
  // one the test gave appointments or documents as the patient is marked deleted instead (and
  // comes back, with them, the next time the user is a customer).
  if (level !== 'customer') {
    try {
      await db.orm.execute(sql`delete from patients where id = ${userId}::uuid`);
    } catch {
      await db.orm.execute(sql`update patients set deleted_at = now() where id = ${userId}::uuid`);
    }
  }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A clinic's commercial and billing data, as PUT /api/account/billing takes them (with the version). */
export const sonrisasBilling = {
  clinicName: 'Clínica Dental Sonrisas',
  contact: '+34 600 111 222',
  useFiscalData: false,
  billingLegalName: 'Sonrisas SL',
  billingTaxId: 'B12345678',
  billingAddress: 'Calle Mayor 1',
  billingCity: 'Madrid',
  billingPostalCode: '28001',
  billingCountry: 'es',
  billingEmail: 'facturas@sonrisas.example',
  billingContact: 'Ana',
};
