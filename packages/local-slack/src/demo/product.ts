/**
 * What the demo runs of the product (the root's `src/`): with product-store.ts, the one place this
 * package reaches into it. The product never imports this package. This part is the bot, loaded
 * after the database has started opening (see main.ts).
 */
export { startBot, type RunningBot } from '../../../../src/bot.js';
export { loadConfig } from '../../../../src/config/config.js';
export * from './product-store.js';
export type { Clock } from '../../../../src/core/clock.js';
export type { Transaction } from '../../../../src/fleet/schemas.js';
export { minorToPlain, toMinor } from '../../../../src/core/money.js';
export { PAYOUT_STEP_CALLBACK_ID, STEP_INPUTS } from '../../../../src/workflow/index.js';
export type { ImportProfile } from '../../../../src/partner-records/profile.js';
export { startHosted, type RunningHost } from '../../../../src/hosting/hosted.js';
export { startSandbox, type Sandbox } from '../../../../src/sandbox/server.js';
export { createThrowawaySchema } from '../../../../src/store/throwaway-schema.js';
