/**
 * What the demo runs of the product (the root's `src/`): the one place this package reaches into it.
 * The product never imports this package.
 */
export { startBot, type RunningBot } from '../../../../src/bot.js';
export { loadConfig } from '../../../../src/config.js';
export { createLogger, type Logger } from '../../../../src/logger.js';
export { migrate, type Db } from '../../../../src/store/index.js';
export { migrations } from '../../../../src/store/migrations/index.js';
export { openPglite } from '../../../../src/store/pglite.js';
export { blankPgliteCluster } from '../../../../src/store/pglite-blank.js';
export { PAYOUT_STEP_CALLBACK_ID, STEP_INPUTS } from '../../../../src/workflow/index.js';
