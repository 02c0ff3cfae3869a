import { describe, expect, it } from 'vitest';
import { profileFromBody } from './session';

describe('profileFromBody', () => {
  const user = { id: '1', completeName: 'Ana Pérez', email: 'ana@example.com', level: 'administrator' };

  it('reads a bare profile or a { data } envelope', () => {
    expect(profileFromBody(user)).toEqual(user);
    expect(profileFromBody({ data: user })).toEqual(user);
  });

  it('treats empty answers as signed out', () => {
    for (const body of [null, undefined, '', {}, [], { data: null }, { data: {} }, 'text']) {
      expect(profileFromBody(body)).toBeNull();
    }
  });
});
