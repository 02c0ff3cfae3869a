import { describe, expect, it } from 'vitest';
import { foldLine, icsCalendar, icsText, icsTime } from './ics.ts';

describe('the booking calendar file (RFC 5545)', () => {
  const event = {
    uid: '0195f0a2-aaaa-7bbb-8ccc-000000000001@odontia',
    sequence: 2,
    start: new Date('2026-03-03T09:30:00.000Z'),
    end: new Date('2026-03-03T10:15:00.000Z'),
    stamp: new Date('2026-02-01T12:00:00.000Z'),
    summary: 'Limpieza, Clínica Sonrisa',
    description: 'Le atenderá: Dra. Ana López\nLlame para cambiarla; gracias',
    location: 'Calle Mayor 1, Madrid',
  };

  it('writes one event in UTC with CRLF line ends and the escaped texts', () => {
    const text = icsCalendar(event);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n').slice(0, -1)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Odontia//Online booking//ES',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'BEGIN:VEVENT',
      'UID:0195f0a2-aaaa-7bbb-8ccc-000000000001@odontia',
      'SEQUENCE:2',
      'DTSTAMP:20260201T120000Z',
      'DTSTART:20260303T093000Z',
      'DTEND:20260303T101500Z',
      'SUMMARY:Limpieza\\, Clínica Sonrisa',
      'DESCRIPTION:Le atenderá: Dra. Ana López\\nLlame para cambiarla\\; gracias',
      'LOCATION:Calle Mayor 1\\, Madrid',
      'STATUS:CONFIRMED',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
    expect(text).not.toMatch(/[^\r]\n/);
  });

  it('says CANCEL for a cancelled appointment', () => {
    const text = icsCalendar({ ...event, status: 'CANCELLED' });
    expect(text).toContain('METHOD:CANCEL\r\n');
    expect(text).toContain('STATUS:CANCELLED\r\n');
  });

  it('formats instants and escapes backslashes', () => {
    expect(icsTime(new Date('2026-12-31T23:05:09.123Z'))).toBe('20261231T230509Z');
    expect(icsText('a\\b')).toBe('a\\\\b');
  });

  it('folds long lines at 75 octets without splitting a character', () => {
    const line = `SUMMARY:${'ñ'.repeat(60)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.byteLength(parts[0] ?? '', 'utf8')).toBeLessThanOrEqual(75);
    for (const part of parts.slice(1)) {
      expect(part.startsWith(' ')).toBe(true);
      expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75);
    }
    expect(parts.map((part, index) => (index === 0 ? part : part.slice(1))).join('')).toBe(line);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
  });
});
