/** The App Home's storage and pacing; nothing here knows Slack. */
export { HomeViews, type HomeSlot } from './home-views.js';
export { KeyedThrottle, realTimers, type Timers } from './throttle.js';
