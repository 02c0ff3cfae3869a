import type { Chart, ChartConfiguration } from 'chart.js';
import { useEffect, useRef } from 'react';

/**
 * A Chart.js chart (issue 19). The library (~70 KB gzip) is imported when the first chart mounts,
 * so it loads with the dashboard that draws it and never with the sign-in page. Colours come from
 * the theme's CSS variables, read when drawn: light and dark alike. The canvas is an image with a
 * text alternative; the figures it draws are also written beside it.
 */
export function LazyChart({
  config,
  label,
  height = 180,
  testId,
}: {
  /** Built from the theme's colours (read them with `themeColour`). */
  config: (colours: ThemeColours) => ChartConfiguration;
  /** What the chart shows, for a screen reader. */
  label: string;
  height?: number;
  testId?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: Chart | undefined;
    let cancelled = false;
    void import('./chart-library').then(({ Chart: ChartJs }) => {
      if (cancelled || !canvas.current) return;
      chart = new ChartJs(canvas.current, config(themeColours(canvas.current)));
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [config]);
  return (
    <div style={{ position: 'relative', height }}>
      <canvas ref={canvas} role="img" aria-label={label} data-testid={testId} />
    </div>
  );
}

export interface ThemeColours {
  primary: string;
  text: string;
  muted: string;
  grid: string;
  series: string[];
}

function themeColours(element: Element): ThemeColours {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    primary: read('--bs-primary', '#0d6efd'),
    text: read('--bs-body-color', '#212529'),
    muted: read('--bs-secondary-color', '#6c757d'),
    grid: read('--bs-border-color', '#dee2e6'),
    series: [
      read('--bs-primary', '#0d6efd'),
      read('--bs-success', '#198754'),
      read('--bs-warning', '#ffc107'),
      read('--bs-info', '#0dcaf0'),
      read('--bs-danger', '#dc3545'),
      read('--bs-secondary', '#6c757d'),
    ],
  };
}
