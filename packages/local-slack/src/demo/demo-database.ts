/**
 * The demo's database: PGlite in a fresh folder per run (the sandbox's data is new each run too),
 * started from a copy of a blank cluster with the migrations already applied, prepared once by
 * `npm install` (see prepare-cluster.ts), because PGlite's initdb and the migrations take seconds.
 * Without it (scripts not run at install), the app's own seeding makes a blank cluster instead.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compilePglite, migrate, migrations, openPglite, seedClusterFrom, type Db, type Logger } from './product-store.js';

export interface DemoDatabase {
  db: Db;
  /** Where PGlite keeps this run's data. */
  dataDir: string;
  /** Closes the database and removes its folder. */
  close(): Promise<void>;
}

const FOLDER_PREFIX = 'fleet-treasury-demo-';

/** Where the install leaves the demo's prepared blank cluster (beside its compiled code). */
export const PREPARED_CLUSTER = fileURLToPath(new URL('../../../../node_modules/.cache/fleet-treasury-demo/pglite-blank', import.meta.url));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the folders of earlier runs that were killed outright (SIGKILL, a crash): each folder is
 * named after the process that made it, and is left alone while that process runs.
 */
async function removeLeftOverFolders(): Promise<void> {
  for (const name of await readdir(os.tmpdir()).catch(() => [] as string[])) {
    const pid = Number(/^fleet-treasury-demo-(\d+)-/.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !isRunning(pid)) {
      await rm(path.join(os.tmpdir(), name), { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

export async function openDemoDatabase(logger: Logger, prepared = PREPARED_CLUSTER): Promise<DemoDatabase> {
  // PGlite's WebAssembly compiles on background threads while the folder is copied.
  compilePglite().catch(() => undefined);
  await removeLeftOverFolders();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  const remove = () => rm(dataDir, { recursive: true, force: true });
  try {
    if (!(await seedClusterFrom(prepared, dataDir))) logger.info({ prepared }, 'no prepared demo cluster: making a blank one');
    const db = await openPglite(dataDir, { logger });
    try {
      // Nothing to apply with a prepared cluster, unless migrations were added since the install.
      await migrate(db, migrations, logger);
    } catch (error) {
      await db.close();
      throw error;
    }
    return { db, dataDir, close: () => db.close().finally(remove) };
  } catch (error) {
    await remove();
    throw error;
  }
}
