import { describe, expect, it } from 'vitest';
import { type Method, useTestClinic } from '../test/test-clinic.ts';
import { availableBackends } from '../test/test-database.ts';

/**
 * Hostile text and dates (issue 14, "From outside"): NUL, a lone UTF-16 surrogate and year-0
 * dates are a 400 with the field's code on every route, never a 500 from the database or the
 * audit trail.
 */
describe.each(availableBackends())('hostile input on %s', (backend) => {
  const t = useTestClinic(backend);
  const call = (method: Method, url: string, payload?: unknown) =>
    t.call(method, url, {
      headers: { 'content-type': 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
  const patient = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'Lucía',
    lastName: 'Fernández',
    sex: 'female',
    birthdate: '1990-04-12',
    ...overrides,
  });
  const fieldsOf = (body: string) => (JSON.parse(body) as { details?: { fields?: unknown[] } }).details?.fields;

  it.each([
    ['a NUL', 'Ana\u0000Belén'],
    ['a lone high surrogate', 'Ana\ud800'],
    ['a lone low surrogate', '\udc00Ana'],
  ])('refuses %s in a patient field with invalid_characters', async (_what, text) => {
    for (const field of ['firstName', 'obs']) {
      const response = await call('POST', '/api/patients', patient({ [field]: text }));
      expect(response.statusCode, response.body).toBe(400);
      expect(fieldsOf(response.body)).toEqual([{ path: field, code: 'invalid_characters' }]);
    }
  });

  it('keeps emoji and accents (a surrogate pair is one character)', async () => {
    const response = await call('POST', '/api/patients', patient({ obs: 'Sonríe 😁 sin miedo' }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.obs).toBe('Sonríe 😁 sin miedo');
  });

  it('refuses NUL and lone surrogates in the search text', async () => {
    for (const q of ['%00', 'Ana%00', '%ED%A0%80']) {
      const response = await call('GET', `/api/patients?q=${q}`);
      expect(response.statusCode, response.body).toBeLessThan(500);
    }
    const nul = await call('GET', '/api/patients?q=Ana%00');
    expect(nul.statusCode, nul.body).toBe(400);
    expect(fieldsOf(nul.body)).toEqual([{ path: 'querystring.q', code: 'invalid_characters' }]);
  });

  it('refuses a lone surrogate in an update that the audit trail records', async () => {
    const created = await call('POST', '/api/patients', patient());
    expect(created.statusCode, created.body).toBe(201);
    const { id, version } = created.json().data;
    const response = await call('PUT', `/api/patients/${id}`, patient({ obs: 'nota \ud83d', version }));
    expect(response.statusCode, response.body).toBe(400);
    expect(fieldsOf(response.body)).toEqual([{ path: 'obs', code: 'invalid_characters' }]);
    const unchanged = await call('GET', `/api/patients/${id}`);
    expect(unchanged.json().data).toMatchObject({ obs: null, version });
  });

  it('refuses them wherever a request carries text: path parameters and keys the contract does not know', async () => {
    const token = await t.call('POST', '/api/auth/activation/abc%00def', { token: null });
    expect(token.statusCode, token.body).toBe(400);
    expect(fieldsOf(token.body)).toEqual([{ path: 'params.token', code: 'invalid_characters' }]);
    const reset = await t.call('GET', '/api/auth/reset-password/%ED%A0%80abc', { token: null });
    expect(reset.statusCode, reset.body).toBeLessThan(500);
    const unknownKey = await call('POST', '/api/patients', { ...patient(), 'nota\u0000': 'x' });
    expect(unknownKey.statusCode, unknownKey.body).toBe(400);
    expect(fieldsOf(unknownKey.body)).toEqual([{ path: '(key)', code: 'invalid_characters' }]);
  });

  it('answers a malformed id 400 and an unknown or other clinic’s id 404, never 500', async () => {
    for (const id of ['123', 'not-a-uuid', '%00', '01234567-89ab-7def-8123-456789abcdef0']) {
      const response = await call('GET', `/api/patients/${id}`);
      expect(response.statusCode, `${id}: ${response.body}`).toBe(400);
    }
    const unknown = await call('GET', '/api/patients/01234567-89ab-7def-8123-456789abcdef');
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json().code).toBe('patient_not_found');
  });

  it('refuses dates outside 1900–2999 in bodies', async () => {
    const created = await call('POST', '/api/patients', patient());
    const { id } = created.json().data;
    for (const date of ['0000-01-01', '1899-12-31', '3000-01-01']) {
      const response = await call('POST', `/api/patients/${id}/diagnoses`, {
        date,
        professionalId: t.clinic.userId,
        text: 'Caries',
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(fieldsOf(response.body)).toEqual([{ path: 'date', code: date < '1900' ? 'date_too_early' : 'too_big' }]);
    }
    const attendance = await call('POST', `/api/patients/${id}/attendances`, {
      date: '0000-01-01T10:00:00Z',
      attendanceType: 'medical_attendance',
      professionalId: t.clinic.userId,
      titleResume: 'Control',
    });
    expect(attendance.statusCode, attendance.body).toBe(400);
    expect(fieldsOf(attendance.body)).toEqual([{ path: 'date', code: 'date_too_early' }]);
  });

  it('refuses an instant outside 1900–2999 in the odontogram’s ?at=', async () => {
    const created = await call('POST', '/api/patients', patient());
    const { id } = created.json().data;
    for (const at of ['0000-01-01T00:00:00Z', '3000-01-01T00:00:00Z']) {
      for (const suffix of ['', '.pdf']) {
        const response = await call('GET', `/api/patients/${id}/odontogram${suffix}?at=${encodeURIComponent(at)}`);
        expect(response.statusCode, response.body).toBe(400);
        expect(fieldsOf(response.body)).toEqual([
          { path: 'querystring.at', code: at.startsWith('0') ? 'date_too_early' : 'too_big' },
        ]);
      }
    }
    const fine = await call(
      'GET',
      `/api/patients/${id}/odontogram?at=${encodeURIComponent('2020-01-01T00:00:00-03:00')}`,
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });
});
