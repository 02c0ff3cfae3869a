import { describe, expect, it } from 'vitest';
import { useAppPerTest } from '../../../test/test-app.ts';

/**
 * The sign-up page promises a trial only where there is one (issue 34): a clinic's plan falls
 * due only where the installation has plans (`PLANS`); without them (self-hosted, the default)
 * nothing is ever due and the page must not speak of a 30-day trial.
 */
describe('GET /api/auth/sign-up', () => {
  const startApp = useAppPerTest();

  it('answers no trial on an installation without plans', async () => {
    const testApp = await startApp();
    const response = await testApp.app.inject({ method: 'GET', url: '/api/auth/sign-up' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ data: { trialDays: null } });
  });

  it("answers the trial's 30 days where the installation has plans", async () => {
    const testApp = await startApp({
      env: {
        PLANS: JSON.stringify([
          { id: 'basic', name: 'Básico', price: '45000', currency: 'argentine_peso', limits: {} },
        ]),
      },
    });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/auth/sign-up' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ data: { trialDays: 30 } });
  });
});
