import { randomUUID } from 'node:crypto';
import { clinicToday } from '@odontia/shared/clinic-time';
import { reportIds } from '@odontia/shared/schemas/reports';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword, demoUsers, seedDemoClinic } from '../src/seed/demo.ts';
import { demoTimeZone } from '../src/seed/demo-time.ts';
import { bearer, signIn } from './clinics.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import { availableBackends } from './test-database.ts';

/**
 * Issue 35: every answer matches the schema the OpenAPI document declares for its operation and
 * status (JSON validated with ajv and its formats: dates, instants, uuids, the amounts' pattern;
 * a file's media type among the declared ones). The demo clinic gives every record real data: each
 * GET of the API without a path parameter is called, then each show and nested list with ids taken
 * from those answers, then the main writes. A mismatch fails with the operation and the JSON path.
 */

type Schema = Record<string, unknown>;
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Checked {
  operation: string;
  status: number;
  problems: string[];
}

/** Finds an answer's operation and checks the answer against its declared schema. */
function contractChecker(document: Document) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const validators = new Map<string, ValidateFunction>();
  // Static segments win over parameters: /api/patients/lookup before /api/patients/{patientId}.
  const templates = Object.keys(document.paths)
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
    }))
    .sort((a, b) => a.params - b.params);

  return (method: string, url: string, answer: LightMyRequestResponse): Checked => {
    const pathname = url.split('?')[0] ?? url;
    const found = templates.find(
      ({ template, pattern }) => pattern.test(pathname) && document.paths[template]?.[method.toLowerCase()],
    );
    const operation = `${method} ${found?.template ?? pathname}`;
    const status = answer.statusCode;
    if (!found) return { operation, status, problems: ['no operation in the document'] };
    const responses = document.paths[found.template]?.[method.toLowerCase()]?.responses ?? {};
    const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`];
    if (!declared) return { operation, status, problems: [`status ${status} is not declared`] };
    const mediaType =
      String(answer.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const content = declared.content ?? {};
    if (!content[mediaType]) return { operation, status, problems: [`media type ${mediaType} is not declared`] };
    if (mediaType !== 'application/json') return { operation, status, problems: [] };
    const key = `${found.template} ${method} ${status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(
        undeclaredDatesAndDecimalsRefused({
          allOf: [content[mediaType]?.schema ?? {}],
          components: document.components,
        }),
      );
      validators.set(key, validate);
    }
    const valid = validate(answer.json());
    const problems = valid
      ? []
      : (validate.errors ?? []).map(
          (error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`,
        );
    return { operation, status, problems };
  };
}

/**
 * A plain string (no format, pattern or enum) whose value reads as a date, an instant or a decimal
 * is a field the document does not describe: the check refuses it, so a new answer field named
 * otherwise than the others still gets `dateText()`/`moneyText()`.
 */
function undeclaredDatesAndDecimalsRefused(schema: unknown): Schema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    // A record's values (a report's row: its cells' types are in its `columns`) are left as declared.
    const copy = Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, key === 'additionalProperties' ? value : walk(value)]),
    ) as Schema;
    if (copy.type === 'string' && !copy.format && !copy.pattern && !copy.enum) {
      copy.not = {
        type: 'string',
        anyOf: [{ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}' }, { pattern: '^-?[0-9]+\\.[0-9]+$' }],
      };
    }
    return copy;
  };
  return walk(schema) as Schema;
}

describe.each(availableBackends())('every answer matches the OpenAPI document on %s', (backend) => {
  let testApp: TestApp;
  let token: string;
  let check: ReturnType<typeof contractChecker>;
  const checked: Checked[] = [];
  const expectNoMismatch = () => {
    const mismatches = checked.filter(({ problems }) => problems.length > 0);
    expect(mismatches.map((m) => `${m.operation} ${m.status}: ${m.problems.join('; ')}`)).toEqual([]);
  };

  async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await testApp.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(token), ...headers },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    checked.push(check(method, url, answer));
    expect(answer.statusCode, `${method} ${url}: ${answer.body.slice(0, 300)}`).toBeLessThan(500);
    return answer;
  }

  beforeAll(async () => {
    testApp = await createTestApp({ backend });
    expect(await seedDemoClinic(testApp.db, { dataDir: testApp.env.DATA_DIR })).toBe('created');
    token = (await signIn(testApp.app, demoUsers[0].email, demoPassword)).token;
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
    check = contractChecker(document);
  }, 180_000);
  afterAll(async () => {
    await testApp?.close();
  });

  it('every GET: the lists, then each record and its nested lists', async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as Document;
    const gets = Object.keys(document.paths).filter((path) => document.paths[path]?.get);
    // A parameter's value: the first id a parent list answered (`/api/patients` → patientId).
    const ids = new Map<string, string>();
    const firstId = (answer: LightMyRequestResponse): string | undefined => {
      if (!String(answer.headers['content-type']).startsWith('application/json')) return undefined;
      const data = answer.json().data;
      const first = Array.isArray(data) ? data[0] : undefined;
      return typeof first?.id === 'string' ? first.id : undefined;
    };
    const skipped = new Set(['/api/auth/sign-out']);
    for (const template of gets.filter((path) => !path.includes('{')).filter((path) => !skipped.has(path))) {
      const answer = await call('GET', template);
      const id = firstId(answer);
      if (id) ids.set(template, id);
    }
    // Shows and nested lists, deepest last: a path's parameters from the list above each.
    const withParams = gets.filter((path) => path.includes('{')).sort((a, b) => a.length - b.length);
    let resolved = 0;
    for (const template of withParams) {
      let url = '';
      let ok = true;
      for (const segment of template.split('/').slice(1)) {
        if (segment.startsWith('{')) {
          const id = ids.get(url);
          if (!id) {
            ok = false;
            break;
          }
          url += `/${id}`;
        } else url += `/${segment}`;
      }
      if (!ok) continue;
      const answer = await call('GET', url);
      resolved += 1;
      const id = firstId(answer);
      if (id) ids.set(url, id);
      // The list itself keyed by its template's shape, for the deeper ones.
      if (id) ids.set(url, id);
    }
    expect(resolved).toBeGreaterThan(40);
    expect(checked.filter(({ status }) => status < 300).length).toBeGreaterThan(90);
    expectNoMismatch();
  }, 180_000);

  it('the GETs that need a query: the calendar, free slots, every report as JSON and as files', async () => {
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    const from = new Date(now - 7 * day).toISOString();
    const to = new Date(now + 7 * day).toISOString();
    const calendar = await call('GET', `/api/appointments/calendar?from=${from}&to=${to}`);
    expect(calendar.statusCode, calendar.body).toBe(200);
    expect((await call('GET', '/api/appointments/free-slots?durationMinutes=30')).statusCode).toBe(200);
    const today = new Date(now).toISOString().slice(0, 10);
    const yearAgo = new Date(now - 360 * day).toISOString().slice(0, 10);
    for (const reportId of reportIds) {
      const page = await call('GET', `/api/reports/${reportId}?from=${yearAgo}&to=${today}`);
      expect(page.statusCode, `${reportId}: ${page.body}`).toBe(200);
    }
    for (const format of ['csv', 'xlsx', 'pdf']) {
      const file = await call('GET', `/api/reports/daily-cash?from=${yearAgo}&to=${today}&format=${format}`);
      expect(file.statusCode).toBe(200);
    }
    expectNoMismatch();
  });

  it('the main writes: a patient, a provider, a supply, an invoice issued and its PDF, a collection, a purchase, a payment, a budget accepted, an appointment', async () => {
    // The clinic's today, not UTC's: between 00:00 and 03:00 UTC Buenos Aires is still on the day before.
    const today = clinicToday(demoTimeZone);
    const key = () => ({ 'idempotency-key': randomUUID() });
    const patient = await call('POST', '/api/patients', {
      firstName: 'Contrato',
      lastName: 'Abierto',
      sex: 'female',
      birthdate: '1988-02-29',
      email: 'contrato@example.com',
    });
    expect(patient.statusCode, patient.body).toBe(201);
    const { id: patientId, version } = patient.json().data;
    const edited = await call('PUT', `/api/patients/${patientId}`, {
      ...patient.json().data,
      id: undefined,
      skuPatient: undefined,
      age: undefined,
      createdAt: undefined,
      createdByName: undefined,
      updatedAt: undefined,
      updatedByName: undefined,
      obs: 'Prefiere turnos por la mañana',
      version,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const stale = await call('PUT', `/api/patients/${patientId}`, { firstName: 'x', version });
    expect(stale.statusCode).toBe(400);

    const provider = await call('POST', '/api/providers', {
      nif: '30-71234567-1',
      taxIdKind: 'cuit',
      fantasyName: 'Insumos Contrato',
      bussinesName: 'Insumos Contrato S.A.',
      fiscalCondition: 'ar_responsable_inscripto',
      currency: 'argentine_peso',
    });
    expect(provider.statusCode, provider.body).toBe(201);
    const supply = await call('POST', '/api/supplies', {
      name: 'Hilo dental de contrato',
      unitMeasurement: 'unit',
      costPrice: '2',
      basePrice: '5',
      taxRate: '21',
      minStock: 0,
      reorderStock: 0,
      totalStock: 10,
    });
    expect(supply.statusCode, supply.body).toBe(201);

    const sale = await call(
      'POST',
      '/api/sales',
      {
        documentType: 'invoice',
        patientId,
        pointOfService: '0001',
        date: today,
        currency: 'argentine_peso',
        lines: [
          { description: 'Limpieza dental', quantity: '1', unitPrice: '15000', vatRate: '21', tooth: '16' },
          { itemId: supply.json().data.id, description: 'Hilo dental', quantity: 2, unitPrice: '5', vatRate: '21' },
        ],
        issue: true,
      },
      key(),
    );
    expect(sale.statusCode, sale.body).toBe(201);
    expect(sale.json().data.status).toBe('issued');
    const pdf = await call('GET', `/api/sales/${sale.json().data.id}/pdf`);
    expect(pdf.headers['content-type']).toMatch(/^application\/pdf/);
    const collection = await call(
      'POST',
      '/api/collections',
      { patientId, date: today, amount: '5000.00', currency: 'argentine_peso', method: 'cash_payment' },
      key(),
    );
    expect(collection.statusCode, collection.body).toBe(201);
    expect((await call('GET', `/api/collections/${collection.json().data.id}/receipt`)).statusCode).toBe(200);

    const providerId = provider.json().data.id;
    const purchase = await call(
      'POST',
      '/api/purchases',
      {
        providerId,
        documentType: 'invoice',
        pointOfService: '0009',
        documentNumber: '123',
        date: today,
        currency: 'argentine_peso',
        lines: [{ description: 'Flete', quantity: '1', unitPrice: '100', vatRate: '21' }],
      },
      key(),
    );
    expect(purchase.statusCode, purchase.body).toBe(201);
    const payment = await call(
      'POST',
      '/api/payments',
      { providerId, date: today, amount: '100.00', currency: 'argentine_peso', method: 'bank_transfer' },
      key(),
    );
    expect(payment.statusCode, payment.body).toBe(201);
    // A budget, accepted (a draft is issued as it is answered), and its progress.
    const budget = await call(
      'POST',
      '/api/sales',
      {
        documentType: 'budget',
        patientId,
        pointOfService: '0001',
        date: today,
        currency: 'argentine_peso',
        lines: [{ description: 'Corona de zirconio', quantity: '1', unitPrice: '250000', vatRate: '0', tooth: '36' }],
        issue: true,
      },
      key(),
    );
    expect(budget.statusCode, budget.body).toBe(201);
    const decided = await call('POST', `/api/sales/${budget.json().data.id}/decision`, { decision: 'accepted' }, key());
    expect(decided.statusCode, decided.body).toBeLessThan(300);
    expect((await call('GET', `/api/sales/${budget.json().data.id}/progress`)).statusCode).toBe(200);

    // An appointment in the first free slot of the demo's agenda.
    const slot = (await call('GET', '/api/appointments/free-slots?durationMinutes=30')).json().data[0];
    const appointment = await call('POST', '/api/appointments', {
      patientId,
      professionalId: slot.professionalId,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      reason: 'Control',
    });
    expect(appointment.statusCode, appointment.body).toBe(201);

    // Errors are answers too: the error shape, declared for every operation.
    expect((await call('POST', '/api/sales', { documentType: 'invoice' }, key())).statusCode).toBe(400);
    expect((await call('GET', `/api/sales/${randomUUID()}`)).statusCode).toBe(404);
    expectNoMismatch();
  });
});
