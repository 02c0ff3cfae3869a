import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAnswer, useTestClinic } from '../../../test/test-clinic.ts';

/*
 * Search as you type, per process (issue 34): a patient search is one round trip to the database
 * after the session check — the transaction's BEGIN, the search in the system context and the
 * rows read back under RLS with their next appointments all go out before the first answer comes
 * back — then COMMIT. One patient: BEGIN with its statement, then COMMIT. Recorded at the driver:
 * each statement as it is sent, each answer as it arrives.
 */
describe.runIf(process.env.DATABASE_URL)('round trips of the patient routes (PostgreSQL)', () => {
  const t = useTestClinic('postgres', { patient: { firstName: 'Lucía', lastName: 'Pérez' } });
  const query = pg.Client.prototype.query;

  afterEach(() => {
    pg.Client.prototype.query = query;
  });

  /** What the server's connections send ('send <first word>') and receive ('answer') during `fn`. */
  async function wire(fn: () => Promise<unknown>): Promise<string[]> {
    const log: string[] = [];
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      const text = typeof config === 'string' ? config : (config.text ?? '');
      log.push(`send ${text.trim().split(/\s+/)[0]?.replace(/;$/, '').toLowerCase()}`);
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        // pg.Pool#query answers through a callback.
        args[last] = (...results: unknown[]) => {
          log.push('answer');
          return callback(...results);
        };
      }
      const answer = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (answer instanceof Promise)
        answer.then(
          () => log.push('answer'),
          () => log.push('answer'),
        );
      return answer;
    } as typeof query;
    await fn();
    return log;
  }

  it('a search: the session check, then one round trip, then COMMIT', async () => {
    const log = await wire(async () => {
      const response = await t.call('GET', '/api/patients?q=perez%20luc');
      expectAnswer(response, 200, { total: 1, data: [{ lastName: 'Pérez', nextAppointment: null }] });
    });
    expect(log).toEqual([
      'send select', // the session check
      'answer',
      'send begin', // BEGIN and the clinic's context
      'send select', // into the system context
      'send select', // the search: the page's ids and the number of matches
      'send select', // back into the clinic's context
      'send select', // the page's rows under RLS, with their next appointments
      'answer',
      'answer',
      'answer',
      'answer',
      'answer',
      'send commit',
      'answer',
    ]);
  });

  it('one patient: the session check, BEGIN with the read, then COMMIT', async () => {
    const log = await wire(async () => {
      const response = await t.call('GET', `/api/patients/${t.patientId}`);
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(log).toEqual([
      'send select',
      'answer',
      'send begin',
      'send select',
      'answer',
      'answer',
      'send commit',
      'answer',
    ]);
  });
});
