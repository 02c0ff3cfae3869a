import { describe, expect, it } from 'vitest';
import { fillPath, openApiPath, queryString } from './api-route.ts';

describe('a declared route as a URL', () => {
  it('fills every path parameter, encoded', () => {
    expect(fillPath('/patients/:patientId/files/:id', { patientId: 'a b', id: 'ñ/1' })).toBe(
      '/patients/a%20b/files/%C3%B1%2F1',
    );
  });

  it('refuses a missing parameter instead of calling /patients/undefined', () => {
    expect(() => fillPath('/patients/:patientId', {})).toThrow(':patientId');
    expect(() => fillPath('/patients/:patientId', { patientId: '' })).toThrow(':patientId');
  });

  it('leaves blank filters out of the query, trims text and repeats arrays', () => {
    expect(queryString({ q: '  pérez luc ', sort: '', status: undefined, page: 2, ids: ['a', 'b'] })).toBe(
      '?q=p%C3%A9rez%20luc&page=2&ids=a&ids=b',
    );
    expect(queryString({ q: '   ' })).toBe('');
    expect(queryString(undefined)).toBe('');
  });

  it("writes OpenAPI's form of a path", () => {
    expect(openApiPath('/patients/:patientId/authorizations/:id/pdf')).toBe(
      '/patients/{patientId}/authorizations/{id}/pdf',
    );
  });
});
