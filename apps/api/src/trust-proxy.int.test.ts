import { describe, expect, it } from 'vitest';
import { useAppPerTest } from '../test/test-app.ts';

/*
 * TRUST_PROXY decides whether X-Forwarded-For names the client: by default it does not, so a
 * forged header cannot give a client a fresh per-IP sign-in limit.
 */
describe('TRUST_PROXY and the per-IP rate limit', () => {
  const startApp = useAppPerTest();

  /**
   * As many failed sign-ins as one address may make across accounts (30, issue 14) with one forged
   * address, then another account with another forged address.
   */
  async function oneMoreWithAnotherForwardedFor(env: Record<string, string>): Promise<number> {
    const testApp = await startApp({ env });
    const { app } = testApp;
    const signIn = (email: string, forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        headers: { 'x-forwarded-for': forwardedFor },
        payload: { email, password: 'una contraseña equivocada' },
      });
    for (let attempt = 1; attempt <= 30; attempt++) {
      expect((await signIn(`nadie-${attempt}@clinica.test`, '198.51.100.1')).statusCode).toBe(401);
    }
    return (await signIn('otra@clinica.test', '198.51.100.2')).statusCode;
  }

  it('by default ignores a forged X-Forwarded-For: the 31st failure from the same socket is still 429', async () => {
    expect(await oneMoreWithAnotherForwardedFor({})).toBe(429);
  });

  it('with TRUST_PROXY=true takes the client from X-Forwarded-For', async () => {
    expect(await oneMoreWithAnotherForwardedFor({ TRUST_PROXY: 'true' })).toBe(401);
  });
});
