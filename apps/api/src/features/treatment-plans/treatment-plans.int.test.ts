import { randomUUID } from 'node:crypto';
import { splitShares } from '@odontia/shared/treatment-plans';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedClinicalPlan } from '../../../bench/clinical-plan-seed.ts';
import { counter } from '../../../test/counter.ts';
import { expectAnswer, expectFieldErrors, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/**
 * Treatment plans (issue 41): the contract's bounds; a plan → its budget (one line per session) →
 * sessions booked (cancelling the appointment returns the session to pending) → attendances carry
 * them out (done once; the odontogram charts the result) → invoices (billed once, through the
 * attendance or the budget); shares add up to the cent; another clinic's ids; levels; audit;
 * 404s and 409s; Idempotency-Key on accept.
 */
describe.each(availableBackends())('treatment plans on %s', (backend) => {
  const t = useTestClinic(backend, { patient: { firstName: 'Lucía', lastName: 'Fernández', phone: '11 4444-5555' } });
  const next = counter();
  const priceList: Record<string, string> = {};

  beforeAll(async () => {
    const made = await t.call('POST', '/api/points-of-sale', { body: { code: '0001', name: 'Recepción' } });
    expect(made.statusCode, made.body).toBe(201);
    for (const [code, name, price, vatRate] of [
      ['OBT', 'Obturación simple', '100.05', '0'],
      ['EXT', 'Extracción simple', '250', '0'],
      ['COR', 'Corona de porcelana', '480', '0'],
      ['LIM', 'Limpieza', '90', '0'],
    ] as const) {
      priceList[code] = (
        await t.created('/api/treatments', { body: { code, name, price, vatRate, durationMinutes: 30 } })
      ).id as string;
    }
  });

  const plans = (patientId = t.patientId) => `/api/patients/${patientId}/treatment-plans`;
  const item = (code: string, overrides: Record<string, unknown> = {}) => ({
    treatmentId: priceList[code],
    unitPrice: code === 'OBT' ? '100.05' : code === 'EXT' ? '250' : code === 'COR' ? '480' : '90',
    ...overrides,
  });
  const body = (overrides: Record<string, unknown> = {}) => ({
    title: `Plan ${next()}`,
    professionalId: t.clinic.userId,
    alternatives: [
      {
        label: 'Plan A',
        phases: [
          { kind: 'urgent', name: 'Urgencias', items: [item('EXT', { tooth: 48 })] },
          {
            kind: 'restorative',
            name: 'Restauradora',
            items: [
              item('OBT', { tooth: 36, zone: 'occlusal', sessions: [{ sharePercent: '40' }, { sharePercent: '60' }] }),
              item('COR', {
                tooth: 46,
                sessions: [
                  { description: 'Toma de impresión', sharePercent: '40' },
                  { description: 'Cementado', sharePercent: '60' },
                ],
              }),
            ],
          },
        ],
      },
      {
        label: 'Plan B',
        phases: [{ kind: 'basic', name: 'Básica', items: [item('LIM', { zone: 'mouth', discountRate: '10' })] }],
      },
    ],
    ...overrides,
  });
  const createPlan = async (patientId = t.patientId, overrides: Record<string, unknown> = {}) =>
    t.created(`${plans(patientId)}`, { body: body(overrides) }) as Promise<Plan>;

  type Session = {
    id: string;
    status: string;
    amount: string;
    budgetLineId: string | null;
    appointmentId: string | null;
    invoiced: boolean;
    description: string;
  };
  type Item = { id: string; tooth: number | null; amount: string; status: string; sessions: Session[] };
  type Plan = {
    id: string;
    version: number;
    status: string;
    budgetId: string | null;
    alternatives: { id: string; label: string; state: string; total: string; phases: { items: Item[] }[] }[];
    progress: { items: Record<string, number>; sessions: Record<string, number>; money: Record<string, string> };
  };
  const itemsOf = (plan: Plan, index = 0) => (plan.alternatives[index]?.phases ?? []).flatMap((phase) => phase.items);
  const get = async (id: string, patientId = t.patientId) => {
    const response = await t.call('GET', `${plans(patientId)}/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Plan;
  };
  const accept = (plan: Plan, alternative = 0, idempotencyKey?: string) =>
    t.call('POST', `${plans()}/${plan.id}/accept`, {
      body: { version: plan.version, alternativeId: plan.alternatives[alternative]?.id },
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
  const book = (plan: Plan, sessionId: string, day = '2026-12-14') =>
    t.call('POST', `${plans()}/${plan.id}/sessions/${sessionId}/appointment`, {
      body: {
        professionalId: t.clinic.userId,
        startsAt: `${day}T10:00:00-03:00`,
        endsAt: `${day}T10:30:00-03:00`,
        allowOutsideSchedule: true,
      },
    });
  const attend = (lines: { budgetLineId: string; price: string; treatmentId?: string; tooth?: number }[]) =>
    t.created(`/api/patients/${t.patientId}/attendances`, {
      body: {
        date: '2026-11-20T10:30:00-03:00',
        attendanceType: 'dentistry',
        professionalId: t.clinic.userId,
        titleResume: 'Sesión del plan',
        billable: true,
        lines: lines.map((line) => ({
          description: 'Sesión del plan',
          quantity: 1,
          price: line.price,
          budgetLineId: line.budgetLineId,
          treatmentId: line.treatmentId ?? null,
          tooth: line.tooth ?? null,
        })),
      },
    }) as Promise<{ id: string; version: number }>;

  it('splits shares to the cent, the last session taking what rounding leaves', () => {
    expect(splitShares('100.05', ['40', '60'])).toEqual(['40.02', '60.03']);
    expect(splitShares('100.00', ['33.33', '33.33', '33.34'])).toEqual(['33.33', '33.33', '33.34']);
    expect(splitShares('0.01', ['50', '50'])).toEqual(['0.00', '0.01']);
  });

  it('validates each field with its code and never answers 500', async () => {
    const cases: [Record<string, unknown>, string, string, Record<string, unknown>?][] = [
      [{ title: '' }, 'title', 'required'],
      [{ title: 'a\u0000b' }, 'title', 'invalid_characters'],
      [{ alternatives: [] }, 'alternatives', 'required'],
      [
        {
          alternatives: [
            {
              label: 'A',
              phases: [
                {
                  kind: 'restorative',
                  name: 'R',
                  items: [item('OBT', { sessions: [{ sharePercent: '40' }, { sharePercent: '50' }] })],
                },
              ],
            },
          ],
        },
        'alternatives.0.phases.0.items.0.sessions',
        'invalid_value',
      ],
      [
        {
          alternatives: [
            {
              label: 'A',
              phases: [{ kind: 'restorative', name: 'R', items: [item('OBT', { unitPrice: '123456789012' })] }],
            },
          ],
        },
        'alternatives.0.phases.0.items.0.unitPrice',
        'too_big',
        { max: 9999999999.99 },
      ],
      [
        {
          alternatives: [
            { label: 'A', phases: [{ kind: 'restorative', name: 'R', items: [item('OBT', { tooth: 19 })] }] },
          ],
        },
        'alternatives.0.phases.0.items.0.tooth',
        'invalid_value',
      ],
      [
        {
          alternatives: [
            { label: 'A', phases: [{ kind: 'restorative', name: 'R', items: [item('OBT', { zone: 'occlusal' })] }] },
          ],
        },
        'alternatives.0.phases.0.items.0.zone',
        'invalid_value',
      ],
      [
        { alternatives: [{ label: 'A', phases: [{ kind: 'cosmetic', name: 'R', items: [] }] }] },
        'alternatives.0.phases.0.kind',
        'invalid_value',
      ],
      [
        {
          alternatives: [
            { label: 'A', phases: [{ kind: 'basic', name: 'R', items: [item('OBT', { treatmentId: randomUUID() })] }] },
          ],
        },
        'alternatives.0.phases.0.items.0.treatmentId',
        'invalid_value',
      ],
    ];
    for (const [overrides, path, code, extra] of cases) {
      const response = await t.call('POST', plans(), { body: body(overrides) });
      expectFieldErrors(response, [{ path, code, ...extra }]);
    }
    // "12.500,50" as typed in a Spanish form is an amount.
    const typed = await t.created(plans(), {
      body: body({
        alternatives: [
          {
            label: 'A',
            phases: [{ kind: 'basic', name: 'B', items: [item('LIM', { zone: 'mouth', unitPrice: '12.500,50' })] }],
          },
        ],
      }),
    });
    expect((typed as Plan).alternatives[0]?.total).toBe('12500.50');
  });

  it('suggests items from the odontogram findings, mapped to the price list', async () => {
    const patientId = await t.newPatient();
    const charted = await t.call('POST', `/api/patients/${patientId}/odontogram/entries`, {
      body: {
        marks: [
          { tooth: 36, zone: 'occlusal', status: 'caries' },
          { tooth: 48, status: 'to_extract' },
          { tooth: 21, status: 'crown' },
          { tooth: 11, status: 'impacted' },
        ],
      },
    });
    expect(charted.statusCode, charted.body).toBe(201);
    const response = await t.call('GET', `${plans(patientId)}/suggestions`);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as Record<string, unknown>[];
    expect(data).toHaveLength(3);
    expect(data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tooth: 36,
          zone: 'occlusal',
          finding: 'caries',
          phaseKind: 'restorative',
          treatmentId: priceList.OBT,
          unitPrice: '100.05',
        }),
        expect.objectContaining({
          tooth: 48,
          zone: null,
          finding: 'to_extract',
          phaseKind: 'surgical',
          treatmentId: priceList.EXT,
        }),
        // No surgical extraction in this price list: the words find the simple one.
        expect.objectContaining({ tooth: 11, finding: 'impacted', treatmentId: priceList.EXT }),
      ]),
    );
  });

  it('plan → budget → sessions → attendances → invoices keeps one truth', async () => {
    await t.call('POST', `/api/patients/${t.patientId}/odontogram/entries`, {
      body: {
        marks: [
          { tooth: 36, zone: 'occlusal', status: 'caries' },
          { tooth: 48, status: 'to_extract' },
        ],
      },
    });
    let plan = await createPlan();
    expect(plan.status).toBe('draft');
    expect(plan.alternatives.map((alternative) => alternative.total)).toEqual(['830.05', '81.00']);
    const [extraction, filling, crown] = itemsOf(plan) as [Item, Item, Item];
    expect(extraction.sessions.map((session) => session.amount)).toEqual(['250.00']);
    expect(filling.sessions.map((session) => session.amount)).toEqual(['40.02', '60.03']);
    expect(crown.sessions.map((session) => session.amount)).toEqual(['192.00', '288.00']);

    const presented = await t.call('POST', `${plans()}/${plan.id}/present`, { body: { version: plan.version } });
    expectAnswer(presented, 200, { code: 'treatment_plan_presented', data: { status: 'presented' } });
    plan = presented.json().data;
    const again = await t.call('POST', `${plans()}/${plan.id}/present`, { body: { version: plan.version } });
    expectAnswer(again, 409, { code: 'treatment_plan_status_invalid' });

    // Stale version: 409 with the current plan, nothing made.
    const stale = await t.call('POST', `${plans()}/${plan.id}/accept`, {
      body: { version: plan.version - 1, alternativeId: plan.alternatives[0]?.id },
    });
    expectAnswer(stale, 409, { code: 'version_conflict', details: { current: { id: plan.id, status: 'presented' } } });
    const wrongAlternative = await t.call('POST', `${plans()}/${plan.id}/accept`, {
      body: { version: plan.version, alternativeId: randomUUID() },
    });
    expectFieldErrors(wrongAlternative, [{ path: 'alternativeId', code: 'invalid_value' }]);

    // Accepting twice with the same key answers the first result: one budget.
    const key = `accept-${randomUUID()}`;
    const accepted = await accept(plan, 0, key);
    expectAnswer(accepted, 200, { code: 'treatment_plan_accepted', data: { status: 'accepted' } });
    const repeated = await accept(plan, 0, key);
    expect(repeated.json().data.budgetId).toBe(accepted.json().data.budgetId);
    plan = accepted.json().data;
    expect(plan.alternatives.map((alternative) => alternative.state)).toEqual(['accepted', 'closed']);
    const { rows: budgets } = await t.db.orm.execute<{ n: number }>(
      sql`select count(*)::int as n from commercial_documents where account_id = ${t.clinic.accountId} and document_type = 'budget' and patient_id = ${t.patientId}`,
    );
    expect(Number(budgets[0]?.n)).toBe(1);
    const noKey = await t.call('POST', `${plans()}/${plan.id}/accept`, {
      body: { version: plan.version, alternativeId: plan.alternatives[0]?.id },
      idempotencyKey: null,
    });
    expectAnswer(noKey, 400, { code: 'idempotency_key_required' });

    // The budget: one line per session, issued and accepted; each session keeps its line.
    const progress = await t.call('GET', `/api/sales/${plan.budgetId}/progress`);
    expect(progress.statusCode, progress.body).toBe(200);
    const budgetLines = progress.json().data.lines as { id: string; total: string; tooth: string | null }[];
    expect(progress.json().data.decision.decision).toBe('accepted');
    expect(budgetLines.map((line) => line.total)).toEqual(['250.00', '40.02', '60.03', '192.00', '288.00']);
    const sessions = itemsOf(plan).flatMap((entry) => entry.sessions);
    expect(sessions.map((session) => session.budgetLineId)).toEqual(budgetLines.map((line) => line.id));
    expect(plan.progress).toMatchObject({
      items: { done: 0, scheduled: 0, pending: 3, total: 3 },
      money: { done: '0.00', pending: '830.05', total: '830.05' },
    });

    // Final once accepted.
    const edit = await t.call('PUT', `${plans()}/${plan.id}`, { body: { ...body(), version: plan.version } });
    expectAnswer(edit, 409, { code: 'treatment_plan_status_invalid' });
    const removed = await t.call('DELETE', `${plans()}/${plan.id}`, { body: { version: plan.version } });
    expectAnswer(removed, 409, { code: 'treatment_plan_status_invalid' });

    // Book the crown's impression; cancelling the appointment returns the session to pending.
    const impression = itemsOf(plan)[2]?.sessions[0] as Session;
    const booked = await book(plan, impression.id);
    expectAnswer(booked, 200, { code: 'treatment_plan_session_booked' });
    plan = booked.json().data;
    const bookedSession = itemsOf(plan)[2]?.sessions[0] as Session;
    expect(bookedSession.status).toBe('scheduled');
    expect(itemsOf(plan)[2]?.status).toBe('scheduled');
    expectAnswer(await book(plan, impression.id), 409, {
      code: 'treatment_plan_session_not_pending',
      details: { status: 'scheduled' },
    });
    const appointment = (await t.call('GET', `/api/appointments/${bookedSession.appointmentId}`)).json().data;
    expect(appointment).toMatchObject({ patientId: t.patientId, treatmentId: priceList.COR, status: 'scheduled' });
    const cancelled = await t.call('POST', `/api/appointments/${appointment.id}/cancel`, {
      body: { reason: 'patient_request', version: appointment.version },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    plan = await get(plan.id);
    expect(itemsOf(plan)[2]?.sessions[0]).toMatchObject({ status: 'pending', appointmentId: null });
    expectAnswer(await book(plan, impression.id, '2026-12-15'), 200, { code: 'treatment_plan_session_booked' });

    // The extraction and both filling sessions are carried out in one attendance.
    const first = await attend([
      { budgetLineId: sessions[0]?.budgetLineId as string, price: '250.00', treatmentId: priceList.EXT, tooth: 48 },
      { budgetLineId: sessions[1]?.budgetLineId as string, price: '40.02', treatmentId: priceList.OBT, tooth: 36 },
      { budgetLineId: sessions[2]?.budgetLineId as string, price: '60.03', treatmentId: priceList.OBT, tooth: 36 },
    ]);
    plan = await get(plan.id);
    expect(itemsOf(plan).map((entry) => entry.status)).toEqual(['done', 'done', 'scheduled']);
    expect(plan.progress).toMatchObject({
      items: { done: 2, scheduled: 1, pending: 0 },
      sessions: { done: 3, scheduled: 1, pending: 1, total: 5 },
      money: { done: '350.05', scheduled: '192.00', pending: '288.00' },
    });
    expectAnswer(await book(plan, sessions[0]?.id as string), 409, {
      code: 'treatment_plan_session_not_pending',
      details: { status: 'done' },
    });
    // The odontogram charts the result of each finished item (filling on the surface, extracted).
    const chart = (await t.call('GET', `/api/patients/${t.patientId}/odontogram`)).json().data;
    const tooth = (n: number) => chart.teeth.find((entry: { tooth: number }) => entry.tooth === n);
    expect(tooth(36).zones.occlusal.status).toBe('filling');
    expect(tooth(48).piece.status).toBe('extracted');
    expect(tooth(46)).toBeUndefined();

    // The follow-up list calls this patient for the crown.
    const followUp = (await t.call('GET', '/api/treatment-plans/follow-up?pageSize=100')).json();
    const row = followUp.data.find((entry: { planId: string }) => entry.planId === plan.id);
    expect(row).toMatchObject({
      patientName: 'Lucía Fernández',
      phone: expect.stringContaining('4444-5555'),
      pendingAmount: '480.00',
      scheduledSessions: 1,
      pendingSessions: 1,
      total: '830.05',
      nextItem: 'Corona de porcelana',
      nextTooth: 46,
      lastVisit: '2026-11-20',
    });

    // Invoicing the attendance bills those three sessions; the budget's conversion bills the rest.
    const draft = await t.call('POST', `/api/patients/${t.patientId}/invoice-draft`, {
      body: { attendanceIds: [first.id] },
    });
    expect(draft.statusCode, draft.body).toBe(201);
    const invoiceDraft = (await t.call('GET', `/api/sales/${draft.json().data.id}`)).json().data;
    expect(
      (await t.call('POST', `/api/sales/${invoiceDraft.id}/issue`, { body: { version: invoiceDraft.version } }))
        .statusCode,
    ).toBe(200);
    plan = await get(plan.id);
    expect(itemsOf(plan).flatMap((entry) => entry.sessions.map((session) => session.invoiced))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    const converted = await t.call('POST', `/api/sales/${plan.budgetId}/convert`, {
      body: { documentType: 'invoice' },
    });
    expect(converted.statusCode, converted.body).toBe(201);
    expect(converted.json().data).toMatchObject({ total: '480.00', lines: 2 });
    const rest = (await t.call('GET', `/api/sales/${converted.json().data.id}`)).json().data;
    expect((await t.call('POST', `/api/sales/${rest.id}/issue`, { body: { version: rest.version } })).statusCode).toBe(
      200,
    );

    // The crown, already billed through the budget, is carried out: done once, not billed again.
    const seating = await attend([
      { budgetLineId: sessions[3]?.budgetLineId as string, price: '192.00', treatmentId: priceList.COR, tooth: 46 },
    ]);
    plan = await get(plan.id);
    expect(itemsOf(plan)[2]?.status).toBe('scheduled');
    expect(tooth(46)).toBeUndefined();
    const second = await attend([
      { budgetLineId: sessions[4]?.budgetLineId as string, price: '288.00', treatmentId: priceList.COR, tooth: 46 },
    ]);
    plan = await get(plan.id);
    expect(plan.status).toBe('completed');
    expect(plan.progress.money).toMatchObject({ done: '830.05', pending: '0.00', scheduled: '0.00' });
    expect(itemsOf(plan).flatMap((entry) => entry.sessions.map((session) => session.invoiced))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    const nothing = await t.call('POST', `/api/patients/${t.patientId}/invoice-draft`, {
      body: { attendanceIds: [seating.id, second.id] },
    });
    expectAnswer(nothing, 409, { code: 'nothing_to_invoice' });
    const after = (await t.call('GET', `/api/patients/${t.patientId}/odontogram`)).json().data;
    expect(after.teeth.find((entry: { tooth: number }) => entry.tooth === 46).piece.status).toBe('crown');
    const followUpAfter = (await t.call('GET', '/api/treatment-plans/follow-up?pageSize=100')).json();
    expect(followUpAfter.data.some((entry: { planId: string }) => entry.planId === plan.id)).toBe(false);

    // Audit: created, presented, accepted, booked; the budget's own events.
    for (const action of [
      'treatment_plan_created',
      'treatment_plan_presented',
      'treatment_plan_accepted',
      'treatment_plan_session_booked',
    ]) {
      const events = (await t.auditEvents(action)).filter((event) => event.entityId === plan.id);
      expect(events.length, action).toBeGreaterThan(0);
      expect(events[0]?.patientId).toBe(t.patientId);
    }
    expect((await t.auditEvents('budget_accepted')).some((event) => event.entityId === plan.budgetId)).toBe(true);
  });

  it('edits a draft whole, answers 409 when stale, rejects, cancels and deletes', async () => {
    const plan = await createPlan();
    const edited = await t.call('PUT', `${plans()}/${plan.id}`, {
      body: { ...body({ title: 'Plan revisado' }), alternatives: body().alternatives.slice(1), version: plan.version },
    });
    expectAnswer(edited, 200, { code: 'treatment_plan_updated', data: { title: 'Plan revisado', version: 2 } });
    expect(edited.json().data.alternatives).toHaveLength(1);
    const stale = await t.call('PUT', `${plans()}/${plan.id}`, { body: { ...body(), version: 1 } });
    expectAnswer(stale, 409, { code: 'version_conflict', details: { current: { title: 'Plan revisado' } } });
    const rejected = await t.call('POST', `${plans()}/${plan.id}/reject`, { body: { version: 2 } });
    expectAnswer(rejected, 200, { code: 'treatment_plan_rejected', data: { status: 'rejected' } });
    expectAnswer(await t.call('POST', `${plans()}/${plan.id}/cancel`, { body: { version: 3 } }), 409, {
      code: 'treatment_plan_status_invalid',
      details: { status: 'rejected' },
    });
    const other = await createPlan();
    expectAnswer(await t.call('POST', `${plans()}/${other.id}/cancel`, { body: { version: 1 } }), 200, {
      data: { status: 'cancelled' },
    });
    const deleted = await t.call('DELETE', `${plans()}/${plan.id}`, { body: { version: 3 } });
    expectAnswer(deleted, 200, { code: 'treatment_plan_deleted' });
    expectAnswer(await t.call('GET', `${plans()}/${plan.id}`), 404, { code: 'treatment_plan_not_found' });
    const { rows } = await t.db.orm.execute<{ deleted: boolean }>(
      sql`select deleted_at is not null as deleted from treatment_plans where account_id = ${t.clinic.accountId} and id = ${plan.id}`,
    );
    expect(rows[0]?.deleted).toBe(true);
    expect((await t.auditEvents('treatment_plan_deleted')).some((event) => event.entityId === plan.id)).toBe(true);
    // Booking in a plan not accepted, and a session that is not the plan's.
    const draft = await createPlan();
    expectAnswer(await book(draft, itemsOf(draft)[0]?.sessions[0]?.id as string), 409, {
      code: 'treatment_plan_not_accepted',
    });
    const acceptedPlan = (await accept(draft)).json().data as Plan;
    expectAnswer(await book(acceptedPlan, randomUUID()), 404, { code: 'treatment_plan_session_not_found' });
    // A session of a closed alternative is not the plan's to book.
    const closed = itemsOf(acceptedPlan, 1)[0]?.sessions[0] as Session;
    expectAnswer(await book(acceptedPlan, closed.id), 404, { code: 'treatment_plan_session_not_found' });
    const empty = await t.created(plans(), {
      body: body({ alternatives: [{ label: 'Vacía', phases: [{ kind: 'basic', name: 'Básica', items: [] }] }] }),
    });
    expectAnswer(await accept(empty as Plan), 409, { code: 'treatment_plan_empty' });
  });

  it("answers 404 for another clinic's plans and patients, and lists only the clinic's own", async () => {
    const plan = await createPlan();
    const theirPatient = await t.newPatient(t.other.token);
    for (const [method, url, payload] of [
      ['GET', `${plans()}/${plan.id}`, undefined],
      ['PUT', `${plans()}/${plan.id}`, { ...body(), version: 1 }],
      ['POST', `${plans()}/${plan.id}/present`, { version: 1 }],
      ['POST', `${plans()}/${plan.id}/accept`, { version: 1, alternativeId: plan.alternatives[0]?.id }],
      ['GET', `${plans(theirPatient)}/${plan.id}`, undefined],
    ] as const) {
      const response = await t.call(method, url, { token: t.other.token, ...(payload ? { body: payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await t.call('GET', plans(), { token: t.other.token });
    expect(list.statusCode).toBe(404);
    expect((await t.call('GET', plans(theirPatient), { token: t.other.token })).json().total).toBe(0);
    expect((await t.call('GET', '/api/treatment-plans/follow-up', { token: t.other.token })).json().total).toBe(0);
    // Their treatment in our plan is not in our price list.
    const theirs = await t.call('POST', '/api/treatments', {
      token: t.other.token,
      body: { code: 'X1', name: 'Ajeno', durationMinutes: 30 },
    });
    const foreign = await t.call('POST', plans(), {
      body: body({
        alternatives: [
          {
            label: 'A',
            phases: [
              { kind: 'basic', name: 'B', items: [item('LIM', { zone: 'mouth', treatmentId: theirs.json().data.id })] },
            ],
          },
        ],
      }),
    });
    expectFieldErrors(foreign, [{ path: 'alternatives.0.phases.0.items.0.treatmentId', code: 'invalid_value' }]);
  });

  it('lets every staff level work on plans and refuses a customer', async () => {
    const plan = await createPlan();
    await t.asLevel('user', async () => {
      expect((await t.call('GET', plans())).statusCode).toBe(200);
      const accepted = await accept(plan);
      expect(accepted.statusCode, accepted.body).toBe(200);
    });
    await t.asLevel('customer', async () => {
      for (const [method, url, payload] of [
        ['GET', plans(), undefined],
        ['GET', `${plans()}/${plan.id}`, undefined],
        ['GET', `${plans()}/suggestions`, undefined],
        ['GET', '/api/treatment-plans/follow-up', undefined],
        ['POST', plans(), body()],
        ['POST', `${plans()}/${plan.id}/present`, { version: 1 }],
      ] as const) {
        const response = await t.call(method, url, payload ? { body: payload } : {});
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
    });
  });

  it("the bench's 60-item plan: accepted as one budget, a third carried out, read whole by the tab's two requests", async () => {
    const patientId = await t.newPatient();
    const seeded = await seedClinicalPlan(t.db, t.clinic, patientId);
    const [list, one] = await Promise.all(seeded.requests.map((url) => t.call('GET', url)));
    expect(list?.statusCode, list?.body).toBe(200);
    expect(list?.json().data[0]).toMatchObject({ id: seeded.planId, status: 'accepted', budgetId: seeded.budgetId });
    expect(one?.statusCode, one?.body).toBe(200);
    const plan = one?.json().data as Plan;
    expect(itemsOf(plan)).toHaveLength(60);
    // 30 crowns and root canals in two sessions, 30 in one: 90 sessions, the first 30 done.
    expect(plan.progress.sessions).toEqual({ done: 30, scheduled: 0, pending: 60, total: 90 });
    expect(plan.progress.money.total).toBe(plan.alternatives[0]?.total);
  });
});
