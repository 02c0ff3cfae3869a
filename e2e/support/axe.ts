import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * axe-core on the page as it is now (WCAG 2.x A and AA rules): the violations, one line each, so a
 * failure says which rule and which element. Call it on a screen in the state worth checking
 * (a list open, a dialog shown), not only after load. `include` limits it to one part (a CSS selector).
 */
export async function expectNoAxeViolations(page: Page, what: string, include?: string): Promise<void> {
  // Legacy mode: axe.run in the page. The default (runPartial per frame, then finishRun in a new
  // blank page per call) opened a page for every check, the larger part of its time here; the
  // app has no cross-origin frames, which is what the default exists for.
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).setLegacyMode(true);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const lines = results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
  );
  expect(lines, `axe on ${what}`).toEqual([]);
}
