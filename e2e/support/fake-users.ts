import type { Page } from '@playwright/test';

/**
 * With the fake session (fixtures/session.ts) the real server refuses the fake token, and a 401
 * signs the app out. Specs that only pass through `/account/users` answer its list here: empty.
 */
export async function answerEmptyUsersList(page: Page): Promise<void> {
  await page.route(/\/api\/users(\?|$)/, (route) =>
    route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 20 } }),
  );
}
