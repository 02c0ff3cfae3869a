import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestClinic } from './test-clinic.ts';
import { availableBackends } from './test-database.ts';

/**
 * Amounts at the edge of what the database keeps (numeric(14,2): twelve digits before the point):
 * a clear 400 with a translated code and the bound, never a 500, wherever an amount is typed or
 * summed (issue 34).
 */
describe.each(availableBackends())('amount bounds on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });
  const twelveDigits = '999999999999';
  const max = 999_999_999_999.99;

  const sale = (lines: object[], extra: object = {}) => ({
    documentType: 'invoice',
    patientId: t.patientId,
    pointOfService: '0001',
    date: '2026-03-10',
    currency: 'argentine_peso',
    lines,
    ...extra,
  });
  const fieldsOf = (body: string) =>
    (JSON.parse(body) as { details?: { fields?: { path: string; code: string; max?: number }[] } }).details?.fields;
  const attendance = (body: object) =>
    t.call('POST', `/api/patients/${t.patientId}/attendances`, {
      body: {
        date: '2026-03-10T10:30:00-03:00',
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Implante',
        billable: true,
        ...body,
      },
    });

  it('refuses a line, a document or an attendance whose total passes the bound, on the field that makes it', async () => {
    const withVat = await t.call('POST', '/api/sales', {
      body: sale([{ description: 'Implante', quantity: '1', unitPrice: twelveDigits, vatRate: '21' }]),
    });
    expect(withVat.statusCode, withVat.body).toBe(400);
    expect(fieldsOf(withVat.body)).toEqual([{ path: 'lines.0.unitPrice', code: 'too_big', max }]);

    const twoLines = await t.call('POST', '/api/purchases', {
      body: {
        documentType: 'invoice',
        providerId: randomUUID(),
        pointOfService: '0001',
        documentNumber: '1',
        date: '2026-03-10',
        currency: 'argentine_peso',
        lines: [
          { description: 'Sillón', quantity: '1', unitPrice: '600000000000', vatRate: '0' },
          { description: 'Autoclave', quantity: '1', unitPrice: '600000000000', vatRate: '0' },
        ],
      },
    });
    expect(twoLines.statusCode, twoLines.body).toBe(400);
    expect(fieldsOf(twoLines.body)).toContainEqual({ path: 'lines', code: 'too_big', max });

    const twice = await attendance({
      attendanceFee: '0',
      lines: [{ description: 'Implante', quantity: 2, price: twelveDigits }],
    });
    expect(twice.statusCode, twice.body).toBe(400);
    expect(fieldsOf(twice.body)).toEqual([{ path: 'lines.0.price', code: 'too_big', max }]);

    const withFee = await attendance({
      attendanceFee: twelveDigits,
      lines: [{ description: 'Implante', quantity: 1, price: twelveDigits }],
    });
    expect(withFee.statusCode, withFee.body).toBe(400);
    expect(fieldsOf(withFee.body)).toEqual([{ path: 'attendanceFee', code: 'too_big', max }]);
  });

  it('says too_big with the bound for an amount of thirteen digits, and keeps twelve', async () => {
    const thirteen = await t.call('POST', '/api/treatments', {
      body: { name: 'Rehabilitación', price: '9999999999999', vatRate: '21', durationMinutes: 30 },
    });
    expect(thirteen.statusCode, thirteen.body).toBe(400);
    expect(fieldsOf(thirteen.body)).toEqual([{ path: 'price', code: 'too_big', max }]);
    const twelve = await t.call('POST', '/api/treatments', {
      body: { name: 'Rehabilitación completa', price: '999.999.999.999,99', vatRate: '21', durationMinutes: 30 },
    });
    expect(twelve.statusCode, twelve.body).toBe(201);
    expect(twelve.json().data.price).toBe('999999999999.99');
  });

  it('answers amount_too_big, not a 500, for a total across records the database cannot keep', async () => {
    const points = await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Caja', active: true } });
    expect(points.statusCode, points.body).toBe(201);
    const big = [{ description: 'Rehabilitación', quantity: '1', unitPrice: '600000000000', vatRate: '0' }];
    const first = await t.call('POST', '/api/sales', { body: sale(big, { issue: true }) });
    expect(first.statusCode, first.body).toBe(201);
    const second = await t.call('POST', '/api/sales', { body: sale(big, { issue: true }) });
    // The customer's balance would be 1.2 × 10¹²: nothing is written, the answer says why.
    expect(second.statusCode, second.body).toBe(400);
    expect(second.json().code).toBe('amount_too_big');
    const balance = await t.call('GET', '/api/sales?limit=50');
    expect(balance.json().data.filter((row: { total: string }) => row.total === '600000000000.00')).toHaveLength(1);
  });
});
