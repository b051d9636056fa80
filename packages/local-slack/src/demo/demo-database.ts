/**
 * The demo's database: PGlite in a fresh folder per run (the sandbox's data is new each run too), started
 * from the dump of a blank cluster, because PGlite's initdb takes seconds.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { blankPgliteCluster, migrate, migrations, openPglite, type Db, type Logger } from './product.js';

export interface DemoDatabase {
  db: Db;
  /** Where PGlite keeps this run's data. */
  dataDir: string;
  /** Closes the database and removes its folder. */
  close(): Promise<void>;
}

const FOLDER_PREFIX = 'fleet-treasury-demo-';

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

export async function openDemoDatabase(logger: Logger): Promise<DemoDatabase> {
  await removeLeftOverFolders();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  const remove = () => rm(dataDir, { recursive: true, force: true });
  try {
    const db = await openPglite(dataDir, { logger, loadDataDir: await blankPgliteCluster() });
    try {
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
