/**
 * Run by `npm run build` after tsc: leaves a blank PGlite cluster in `dist/pglite-blank/` with the
 * app's migrations already applied, so that the first start on a new DATA_DIR copies it instead of
 * running initdb and every migration (see pglite-seed.ts). The copy is made with this build's
 * migrations, so it never holds one the running code does not know.
 */
import { rm } from 'node:fs/promises';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { openPglite } from './pglite.js';
import { BUILT_BLANK_CLUSTER, makeBlankCluster } from './pglite-seed.js';

// Made anew each build: one from an earlier build may hold migrations this one no longer has.
await rm(BUILT_BLANK_CLUSTER, { recursive: true, force: true });
await makeBlankCluster(BUILT_BLANK_CLUSTER);
const db = await openPglite(BUILT_BLANK_CLUSTER);
try {
  const applied = await migrate(db, migrations);
  process.stdout.write(`blank PGlite cluster ready in ${BUILT_BLANK_CLUSTER} (${applied.length} migrations applied)\n`);
} finally {
  await db.close();
}
