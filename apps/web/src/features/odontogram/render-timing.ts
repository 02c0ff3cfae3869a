/**
 * The render figure of the odontogram (issue 6; `npm run bench -- odontogram`): from the chart's
 * data arriving (the answer parsed) to the frame after it is painted. Two marks and a measure
 * in the page's performance timeline, `odontogram:render`; nothing else reads them.
 */

let pending = false;

/** The answer of the chart query has arrived. */
export function markChartData<T>(data: T): T {
  performance.clearMarks('odontogram:data');
  performance.mark('odontogram:data');
  pending = true;
  return data;
}

/** Called after the chart with new data is committed: measures at the frame after its paint. */
export function markChartPainted(): void {
  if (!pending) return;
  pending = false;
  requestAnimationFrame(() => {
    // The callback of the next task after this frame: the frame has been painted.
    setTimeout(() => {
      performance.mark('odontogram:painted');
      performance.measure('odontogram:render', 'odontogram:data', 'odontogram:painted');
    }, 0);
  });
}
