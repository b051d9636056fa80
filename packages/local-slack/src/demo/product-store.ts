/**
 * What the demo runs of the product's store and logging: light to load, so that main.ts can start
 * the database before loading the bot's code (Bolt and the rest, product.ts).
 */
export { createLogger, type Logger } from '../../../../src/core/logger.js';
export type { Db } from '../../../../src/store/db.js';
export { migrate } from '../../../../src/store/migrate.js';
export { migrations } from '../../../../src/store/migrations/index.js';
export { compilePglite, openPglite } from '../../../../src/store/pglite.js';
export { hasBlankCluster, makeBlankCluster, pgliteVersion, seedClusterFrom } from '../../../../src/store/pglite-seed.js';
