import type { Page } from '@playwright/test';

/** A signature-like stroke across the pad, with the mouse; answers the pad's box for more strokes. */
export async function drawSignature(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error('the signature pad has no box');
  const y = box.y + box.height * 0.55;
  await page.mouse.move(box.x + box.width * 0.1, y);
  await page.mouse.down();
  for (let step = 1; step <= 30; step += 1) {
    const x = box.x + box.width * (0.1 + (0.7 * step) / 30);
    await page.mouse.move(x, y + Math.sin(step / 2.5) * box.height * 0.2, { steps: 2 });
  }
  await page.mouse.up();
  return box;
}
