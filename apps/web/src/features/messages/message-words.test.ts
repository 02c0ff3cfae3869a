import { describe, expect, it } from 'vitest';
import es from '../../locales/es/messaging.json';
import {
  insertPlaceholder,
  minutesOfTime,
  moveChannel,
  patientAnswerChannel,
  reminderOf,
  replyExplanationKey,
  replyExplanationKeys,
  statusMoment,
  timeOfMinutes,
} from './message-words';

const times = {
  createdAt: '2026-03-02T12:00:00.000Z',
  sentAt: '2026-03-02T12:00:05.000Z',
  deliveredAt: '2026-03-02T12:00:09.000Z',
  readAt: '2026-03-02T12:30:00.000Z',
  failedAt: null,
};

describe('a message status and its moment', () => {
  it('delivered and read say when; sent before that; queued when queued; cancelled none', () => {
    expect(statusMoment({ ...times, status: 'delivered' })).toBe(times.deliveredAt);
    expect(statusMoment({ ...times, status: 'read' })).toBe(times.readAt);
    expect(statusMoment({ ...times, status: 'read', readAt: null })).toBe(times.deliveredAt);
    expect(statusMoment({ ...times, status: 'sent' })).toBe(times.sentAt);
    expect(statusMoment({ ...times, status: 'queued' })).toBe(times.createdAt);
    expect(statusMoment({ ...times, status: 'failed', failedAt: '2026-03-02T12:01:00.000Z' })).toBe(
      '2026-03-02T12:01:00.000Z',
    );
    expect(statusMoment({ ...times, status: 'cancelled' })).toBeNull();
  });

  it("an appointment's reminder is its newest message of that kind", () => {
    expect(
      reminderOf([{ kind: 'answer' }, { kind: 'appointment_reminder', id: 2 }, { kind: 'appointment_reminder' }]),
    ).toEqual({ kind: 'appointment_reminder', id: 2 });
    expect(reminderOf([{ kind: 'recall' }])).toBeNull();
  });
});

describe('a reply explained', () => {
  it('in words the catalog has, for every intent and outcome', () => {
    const read = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], es);
    for (const key of replyExplanationKeys) expect(typeof read(key), key).toBe('string');
    for (const intent of ['confirm', 'cancel', 'stop', 'start', 'unknown'] as const)
      for (const outcome of ['applied', 'already', 'too_late', 'no_appointment', 'unknown_sender', 'inbox'] as const)
        expect(replyExplanationKeys).toContain(replyExplanationKey({ intent, outcome }));
  });

  it('a late "2" says the appointment had started; a word not known asks the desk to read it', () => {
    expect(replyExplanationKey({ intent: 'cancel', outcome: 'too_late' })).toBe('replies.cancel.too_late');
    expect(es.replies.cancel.too_late).toMatch(/^Respondió 2 .*ya había empezado/);
    expect(es.replies.cancel.too_late).toContain('{{appointment}}');
    expect(replyExplanationKey({ intent: 'unknown', outcome: 'inbox' })).toBe('replies.unknown');
    expect(replyExplanationKey({ intent: 'confirm', outcome: 'unknown_sender' })).toBe('replies.unknownSender');
  });
});

describe('the reminder channels', () => {
  it('move one place at a time and stay put at the ends', () => {
    expect(moveChannel(['email', 'sms', 'whatsapp'], 'whatsapp', -1)).toEqual(['email', 'whatsapp', 'sms']);
    expect(moveChannel(['email', 'whatsapp', 'sms'], 'whatsapp', -1)).toEqual(['whatsapp', 'email', 'sms']);
    expect(moveChannel(['whatsapp', 'email', 'sms'], 'whatsapp', -1)).toEqual(['whatsapp', 'email', 'sms']);
    expect(moveChannel(['whatsapp', 'email', 'sms'], 'sms', 1)).toEqual(['whatsapp', 'email', 'sms']);
    expect(moveChannel(['whatsapp', 'email', 'sms'], 'email', 1)).toEqual(['whatsapp', 'sms', 'email']);
  });

  it('quiet hours go between minutes of the day and the time inputs', () => {
    expect(timeOfMinutes(0)).toBe('00:00');
    expect(timeOfMinutes(21 * 60 + 5)).toBe('21:05');
    expect(minutesOfTime('09:30')).toBe(570);
    expect(minutesOfTime('23:59')).toBe(1439);
    expect(minutesOfTime('24:00')).toBeNull();
    expect(minutesOfTime('')).toBeNull();
  });
});

describe('a placeholder chip', () => {
  it('puts {{name}} at the caret, over the selection, and the caret after it', () => {
    expect(insertPlaceholder('Hola , te esperamos', 'patient', { start: 5, end: 5 })).toEqual({
      text: 'Hola {{patient}}, te esperamos',
      caret: 16,
    });
    expect(insertPlaceholder('Hola X', 'patient', { start: 5, end: 6 }).text).toBe('Hola {{patient}}');
    expect(insertPlaceholder('', 'date', { start: 9, end: 9 })).toEqual({ text: '{{date}}', caret: 8 });
  });
});

describe("the channel of a patient's own cancellation", () => {
  const change = (action: string, userId: string | null, channel?: string) => ({
    action,
    userId,
    after: channel ? { status: 'cancelled', channel } : { status: 'cancelled' },
  });
  it('is the one its audit kept, else the reminder it answered', () => {
    expect(patientAnswerChannel([change('appointment_cancelled', null, 'whatsapp')], null)).toBe('whatsapp');
    expect(patientAnswerChannel([change('appointment_cancelled', null, 'sms')], { channel: 'whatsapp' })).toBe('sms');
    expect(patientAnswerChannel([change('appointment_cancelled_online', null, 'online')], null)).toBe('online');
    // A staff cancellation is not the patient's answer.
    expect(patientAnswerChannel([change('appointment_cancelled', 'u1', 'phone')], { channel: 'email' })).toBe(
      'reminder_link',
    );
    expect(patientAnswerChannel([], { channel: 'sms' })).toBe('sms');
    expect(patientAnswerChannel([], null)).toBeNull();
  });
});
