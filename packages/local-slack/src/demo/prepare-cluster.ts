/**
 * Run at `npm install` (through scripts/postinstall.mjs, compiled): leaves the demo a blank PGlite
 * cluster with every migration applied in PREPARED_CLUSTER, so that `npm run demo` copies it into
 * its temporary folder instead of running initdb and the migrations (seconds) at each start.
 * Made aside and renamed, so that a demo starting meanwhile never copies half a cluster.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { PREPARED_CLUSTER } from './demo-database.js';
import { makeBlankCluster, migrate, migrations, openPglite, hasBlankCluster, pgliteVersion } from './product-store.js';

export async function prepareDemoCluster(target = PREPARED_CLUSTER): Promise<'ready' | 'made'> {
  const version = await pgliteVersion();
  // Made by this PGlite version: kept. Migrations added since are applied by each demo start.
  if (await hasBlankCluster(target)) return 'ready';
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await makeBlankCluster(partial);
    const db = await openPglite(partial);
    try {
      await migrate(db, migrations);
      // The app uses the `postgres` database only. Without the two template databases the demo
      // copies 500 files at each start instead of 1,100; it never creates a database.
      await db.query('ALTER DATABASE template0 IS_TEMPLATE false; ALTER DATABASE template1 IS_TEMPLATE false');
      await db.query('DROP DATABASE template0');
      await db.query('DROP DATABASE template1');
      await db.query('CHECKPOINT');
    } finally {
      await db.close();
    }
    await rm(target, { recursive: true, force: true });
    await rename(partial, target);
    process.stdout.write(`fleet-treasury-bot: demo database prepared (PGlite ${version}, ${migrations.length} migrations)\n`);
    return 'made';
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}
