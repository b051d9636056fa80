/**
 * The demo's database: PGlite, new each run (the sandbox's data is new each run too), started in
 * memory from a snapshot of a blank database with the migrations already applied, prepared once by
 * `npm install` (see prepare-cluster.ts): PGlite's initdb and the migrations take seconds, and even
 * copying a prepared cluster's folder (500 files, 26 MB) cost more than half a second of CPU.
 * Without it (scripts not run at install), a folder in the temporary folder, seeded by the app's own
 * code, removed on close.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { markStart } from './start-timings.js';
import { compilePglite, migrate, migrations, openPglite, pgliteVersion, type Db, type Logger } from './product-store.js';

export interface DemoDatabase {
  db: Db;
  /** Where PGlite keeps this run's data; undefined when in memory (started from the snapshot). */
  dataDir: string | undefined;
  /** Closes the database and removes its folder. */
  close(): Promise<void>;
}

const FOLDER_PREFIX = 'fleet-treasury-demo-';

/** Where the install leaves the demo's prepared snapshot (beside its compiled code). */
export const PREPARED_DIR = fileURLToPath(new URL('../../../../node_modules/.cache/fleet-treasury-demo', import.meta.url));

/** The snapshot in `dir` made by this PGlite version (a dump of the data folder, as PGlite's `loadDataDir` reads). */
export async function snapshotFile(dir: string): Promise<string> {
  return path.join(dir, `demo-database-pglite-${await pgliteVersion()}.tar`);
}

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

export async function openDemoDatabase(logger: Logger, prepared = PREPARED_DIR): Promise<DemoDatabase> {
  // PGlite's WebAssembly compiles on background threads while the snapshot is read.
  compilePglite().catch(() => undefined);
  const [snapshot] = await Promise.all([readFile(await snapshotFile(prepared)).catch(() => undefined), removeLeftOverFolders()]);
  markStart('database snapshot read');
  if (snapshot) return opened(await openPglite('memory://', { logger, loadDataDir: new Blob([snapshot]) }), logger);
  logger.info({ prepared }, 'no prepared demo database: making a blank one in a temporary folder');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  const remove = () => rm(dataDir, { recursive: true, force: true });
  try {
    return await opened(await openPglite(dataDir, { logger }), logger, { dataDir, remove });
  } catch (error) {
    await remove();
    throw error;
  }
}

async function opened(db: Db, logger: Logger, folder?: { dataDir: string; remove(): Promise<void> }): Promise<DemoDatabase> {
  try {
    markStart('database started');
    // Nothing to apply with a prepared snapshot, unless migrations were added since the install.
    await migrate(db, migrations, logger);
    markStart('database migrated');
  } catch (error) {
    await db.close();
    throw error;
  }
  return { db, dataDir: folder?.dataDir, close: () => db.close().finally(() => folder?.remove()) };
}
