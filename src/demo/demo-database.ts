/**
 * The demo's database: PGlite in a fresh folder per run (the sandbox's data is new each run too), started
 * from a dump of a blank cluster kept in the temporary folder, because PGlite's initdb takes seconds.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../logger.js';
import { migrate, type Db } from '../store/index.js';
import { migrations } from '../store/migrations/index.js';
import { openPglite } from '../store/pglite.js';

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
    const db = await openPglite(dataDir, { logger, loadDataDir: await blankCluster() });
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

// The same file name as the test suite's cache, so either one warms the other.
async function blankCluster(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `fleet-treasury-bot-pglite-${await pgliteVersion()}-blank.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const lite = await PGlite.create();
    const dump = await lite.dumpDataDir('none');
    await lite.close();
    // Written aside and renamed, so that a demo or test starting at the same time never reads half a dump.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  }
}

async function pgliteVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(await readFile(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version);
}
