/**
 * The demo's database: PGlite in a fresh folder per run (the sandbox's data is new each run too), started
 * from the dump of a blank cluster, because PGlite's initdb takes seconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
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

export async function openDemoDatabase(logger: Logger): Promise<DemoDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'fleet-treasury-demo-'));
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
