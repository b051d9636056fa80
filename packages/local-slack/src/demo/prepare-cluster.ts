/**
 * Run at `npm install` (through scripts/postinstall.mjs, compiled): leaves the demo a snapshot of a
 * blank PGlite database with every migration applied in PREPARED_DIR (one file, see
 * demo-database.ts), so that `npm run demo` starts PGlite in memory from it instead of running initdb
 * and the migrations (seconds), or copying a cluster's folder (half a second), at each start.
 * Made aside and renamed, so that a demo starting meanwhile never reads half a snapshot.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PREPARED_DIR, snapshotFile } from './demo-database.js';
import { makeBlankCluster, migrate, migrations, openPglite, pgliteVersion } from './product-store.js';

export async function prepareDemoCluster(dir = PREPARED_DIR): Promise<'ready' | 'made'> {
  const version = await pgliteVersion();
  const target = await snapshotFile(dir);
  // Made by this PGlite version: kept. Migrations added since are applied by each demo start.
  if (
    await stat(target).then(
      () => true,
      () => false,
    )
  )
    return 'ready';
  await mkdir(dir, { recursive: true });
  const partial = path.join(dir, `.partial-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await makeBlankCluster(partial);
    const db = await openPglite(partial);
    try {
      await migrate(db, migrations);
      // The app uses the `postgres` database only. Without the two template databases the snapshot
      // holds 500 files instead of 1,100; the demo never creates a database.
      await db.query('ALTER DATABASE template0 IS_TEMPLATE false; ALTER DATABASE template1 IS_TEMPLATE false');
      await db.query('DROP DATABASE template0');
      await db.query('DROP DATABASE template1');
      await db.query('CHECKPOINT');
    } finally {
      await db.close();
    }
    await writeFile(`${partial}.tar`, await dumpFolder(partial));
    await rename(`${partial}.tar`, target);
    // What earlier installs left: snapshots of other PGlite versions, the cluster folder the demo used to copy.
    for (const name of await readdir(dir)) {
      if ((/^demo-database-pglite-.*\.tar$/.test(name) && path.join(dir, name) !== target) || name === 'pglite-blank') {
        await rm(path.join(dir, name), { recursive: true, force: true });
      }
    }
    process.stdout.write(`fleet-treasury-bot: demo database prepared (PGlite ${version}, ${migrations.length} migrations)\n`);
    return 'made';
  } finally {
    await rm(partial, { recursive: true, force: true });
    await rm(`${partial}.tar`, { force: true });
  }
}

/** The cluster in `dataDir` as one tar file, as PGlite's `loadDataDir` reads it. */
async function dumpFolder(dataDir: string): Promise<Buffer> {
  const lite = await PGlite.create({ dataDir });
  try {
    return Buffer.from(await (await lite.dumpDataDir('none')).arrayBuffer());
  } finally {
    await lite.close();
  }
}
