/** The runway's front door: the figure, its settings, its alert and its chart. */
export { computeRunway, type CurrencyRunway, type DayBalance, type Runway, type RunwayGap, type RunwayOptions } from './figure.js';
export type { RunwaySettings } from './settings.js';
export { checkRunwayAlerts, isBelow, RunwayWatch, type RunwayAlert, type RunwayWatchOptions } from './alerts.js';
