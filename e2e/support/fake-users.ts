import type { Page } from '@playwright/test';

/**
 * With the fake session (fixtures/session.ts) the real server refuses the fake token, and a 401
 * signs the app out. Specs that only pass through the built list pages (`/account/users`,
 * `/medications`, `/supplies`, `/inventory/reorder`, `/patients`) answer their lists here: empty.
 */
export async function answerEmptyLists(page: Page): Promise<void> {
  await page.route(
    /\/api\/(users|medications|supplies|inventory\/reorder|patients|authorization-templates|providers)(\?|$)/,
    (route) => route.fulfill({ status: 200, json: { data: [], total: 0, page: 1, pageSize: 20 } }),
  );
}
