/**
 * The render figure of the periodontal chart (issue 41; `npm run bench -- clinical`): from the
 * exam's data arriving to the frame after the chart is painted, as `perio:render` in the page's
 * performance timeline (the odontogram's render-timing.ts does the same).
 */

let pending = false;

/** The answer of the exam query has arrived. */
export function markPerioData<T>(data: T): T {
  performance.clearMarks('perio:data');
  performance.mark('perio:data');
  pending = true;
  return data;
}

/** Called after the chart with new data is committed: measures at the frame after its paint. */
export function markPerioPainted(): void {
  if (!pending) return;
  pending = false;
  requestAnimationFrame(() => {
    setTimeout(() => {
      performance.mark('perio:painted');
      performance.measure('perio:render', 'perio:data', 'perio:painted');
    }, 0);
  });
}
