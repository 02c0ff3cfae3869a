import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  LinearScale,
  Tooltip,
} from 'chart.js';

/*
 * Only what the dashboard draws (bars over categories, a doughnut, their tooltips), not
 * `chart.js/auto`: every controller, scale and plugin of the library is about twice the code to
 * download and parse on a phone (issue 34, mobile Lighthouse).
 */
Chart.register(BarController, BarElement, CategoryScale, LinearScale, DoughnutController, ArcElement, Tooltip);

export { Chart };
