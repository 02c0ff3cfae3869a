import type { Page } from '@playwright/test';

/**
 * With the fake session (fixtures/session.ts) the real server refuses the fake token, and a 401
 * signs the app out. Specs that only pass through the built list pages (`/account/users`,
 * `/medications`, `/supplies`, `/inventory/reorder`, `/patients`, `/providers`, `/purchases`, `/payments`,
 * `/collections`, `/cc-providers`, `/cc-customers`) answer their lists here: empty.
 */
export async function answerEmptyLists(page: Page): Promise<void> {
  await page.route(
    /\/api\/(users|medications|supplies|inventory\/reorder|patients|authorization-templates|providers|purchases|payments|collections|sales|treatments|treatments\/groups|customers)(\?|$)/,
    (route) => route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 20 } }),
  );
  // The clinic's money (issue 40): its registers and sessions, payers and presentations, payment
  // plans and their instalments, settlements and their rules, and the dental lab cases (issue 41),
  // all empty; the cash rule off.
  await page.route(
    /\/api\/(cash-registers|cash-sessions|payers|payer-presentations|payment-plans|payment-plans\/instalments|settlements|settlement-rules|lab-cases)(\?|$)/,
    (route) => route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 20 } }),
  );
  // Treatment plans (issue 41): the follow-up list, empty.
  await page.route(/\/api\/treatment-plans\/follow-up(\?|$)/, (route) =>
    route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 25 } }),
  );
  // Webhooks for integrators (issue 42): no subscriptions.
  await page.route(/\/api\/settings\/webhooks(\?|$)/, (route) =>
    route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 20 } }),
  );
  await page.route(/\/api\/settings\/cash(\?|$)/, (route) =>
    route.fulfill({ status: 200, json: { data: { cashNeedsOpenSession: false, version: 1 } } }),
  );
  // The replies' inbox (issue 38): the sidebar's badge counts the open ones; none here. Left to the
  // real server, the fake token's 401 would end the session behind the test's back.
  await page.route(/\/api\/inbox(\?|$)/, (route) =>
    route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 1, open: 0 } }),
  );
  // My account (issue 19): a self-hosted clinic's account and no movements.
  await page.route(/\/api\/account\/movements(\?|$)/, (route) =>
    route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 10 } }),
  );
  await page.route(/\/api\/account(\?|$)/, (route) =>
    route.fulfill({
      status: 200,
      json: {
        data: {
          commercial: { clinicName: 'Clínica de prueba', contact: '+34 600 000 000', promotionalCode: null },
          billing: {
            useFiscalData: true,
            billingLegalName: null,
            billingTaxId: null,
            billingAddress: null,
            billingCity: null,
            billingPostalCode: null,
            billingCountry: null,
            billingEmail: null,
            billingContact: null,
          },
          fiscal: { legalName: null, taxId: null, address: null, city: null, country: null },
          planId: 'trial',
          plan: null,
          plans: [],
          usage: { professionals: 1, storageMb: 0 },
          contract: {
            startsAt: null,
            endsAt: null,
            dueDate: null,
            graceDays: 15,
            graceEndsAt: null,
            state: 'active',
            pendingRenewal: null,
          },
          selfHosted: true,
          updatedAt: '2026-01-01T00:00:00.000Z',
          version: 1,
        },
      },
    }),
  );
  // The system settings (issue 19): the page needs the settings' shape, not a list.
  await page.route(/\/api\/settings\/numbering(\?|$)/, (route) => route.fulfill({ status: 200, json: { data: [] } }));
  await page.route(/\/api\/settings\/clinic(\?|$)/, (route) =>
    route.fulfill({
      status: 200,
      json: {
        data: {
          currency: 'euro',
          dateFormat: 'DD/MM/YYYY',
          defaultLanguage: 'es',
          timeZone: 'Europe/Madrid',
          lockAfterMinutes: 15,
          remindersEnabled: true,
          reminderLeadMinutes: 1440,
          uploadMaxMb: null,
          uploadMaxMbLimit: 10,
          updatedAt: '2026-01-01T00:00:00.000Z',
          version: 1,
        },
      },
    }),
  );
  // Online booking's rules (issue 37): off, nothing offered.
  await page.route(/\/api\/settings\/online-booking(\?|$)/, (route) =>
    route.fulfill({
      status: 200,
      json: {
        data: {
          enabled: false,
          treatmentIds: [],
          professionalIds: [],
          leadHours: 24,
          horizonDays: 60,
          maxPending: 2,
          newPatients: true,
          changeHours: 24,
          treatments: [],
          professionals: [],
          version: 1,
        },
      },
    }),
  );
  const zero = '0.00';
  const aging = { current: zero, days_0_30: zero, days_31_60: zero, days_61_90: zero, days_over_90: zero };
  await page.route(/\/api\/current-accounts\/(providers|customers)(\?|$)/, (route) =>
    route.fulfill({
      status: 200,
      json: {
        data: [],
        total: 0,
        page: 1,
        pageSize: 20,
        totals: { balance: zero, overdue: zero, onAccount: zero, aging },
      },
    }),
  );
}
