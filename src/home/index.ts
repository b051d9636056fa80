/** The App Home's storage and pacing; nothing here knows Slack. */
export { HomeViews } from './home-views.js';
export { KeyedThrottle, type Timers } from './throttle.js';
