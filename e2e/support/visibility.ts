import type { Page } from '@playwright/test';

/**
 * Makes the page believe its tab was hidden or shown again. Headless Chromium keeps every page
 * "visible", so `document.visibilityState` is overridden on the document (the prototype's getter
 * comes back when the override is removed) and `visibilitychange` is dispatched, which is all
 * apps/web/src/lib/document-title.ts listens to.
 */
export async function setTabVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((next) => {
    if (next === 'hidden') {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    } else {
      // Own properties shadow Document.prototype's getters; removing them restores the real state.
      Reflect.deleteProperty(document, 'visibilityState');
      Reflect.deleteProperty(document, 'hidden');
    }
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}
