import { describe, expect, it } from 'vitest';
import { apiBaseFromBaseUri, basenameFromBaseUri } from './base-path';

describe('base path', () => {
  it('gives the router basename without a trailing slash', () => {
    expect(basenameFromBaseUri('http://localhost:3000/')).toBe('/');
    expect(basenameFromBaseUri('http://localhost:3000/clinica/')).toBe('/clinica');
    expect(basenameFromBaseUri('https://example.com/a/b/')).toBe('/a/b');
  });

  it('puts the API under the base path', () => {
    expect(apiBaseFromBaseUri('http://localhost:3000/')).toBe('/api');
    expect(apiBaseFromBaseUri('http://localhost:3000/clinica/')).toBe('/clinica/api');
  });
});
