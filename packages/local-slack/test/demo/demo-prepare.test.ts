import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDemoDatabase } from '../../src/demo/demo-database.js';
import { prepareDemoCluster } from '../../src/demo/prepare-cluster.js';
import { createLogger, migrations, pgliteVersion } from '../../src/demo/product-store.js';

const SCRIPTS = fileURLToPath(new URL('../../scripts/', import.meta.url));
const folders: string[] = [];
const demoFolders = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('fleet-treasury-demo-'));
const newFolder = async () => {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'ftb-demo-prepare-'));
  folders.push(folder);
  return folder;
};
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe("the demo's install step", () => {
  it('does nothing and still succeeds where the dev dependencies are not installed (a production install)', async () => {
    // The scripts alone, where no node_modules can be found above them.
    const root = await newFolder();
    const scripts = path.join(root, 'packages', 'local-slack', 'scripts');
    await mkdir(scripts, { recursive: true });
    for (const name of await readdir(SCRIPTS)) await copyFile(path.join(SCRIPTS, name), path.join(scripts, name));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(scripts, 'postinstall.mjs')], { cwd: root });
    expect(stdout + stderr).toBe('');
    expect(await readdir(root)).toEqual(['packages']);
  });

  it('prepares a snapshot of a blank database with every migration, from which each demo database starts in memory', async () => {
    const prepared = path.join(await newFolder(), 'fleet-treasury-demo');
    expect(await prepareDemoCluster(prepared)).toBe('made');
    expect(await prepareDemoCluster(prepared)).toBe('ready');
    // One file, not a cluster's folder: the demo reads it instead of copying 500 files (26 MB) at each start.
    expect(await readdir(prepared)).toEqual([`demo-database-pglite-${await pgliteVersion()}.tar`]);
    const demosBefore = await demoFolders();
    const demo = await openDemoDatabase(silent(), prepared);
    try {
      const applied = await demo.db.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
      expect(applied.rows[0]?.count).toBe(migrations.length);
      // The snapshot holds only the app's database, not the two templates it never uses.
      const databases = await demo.db.query<{ datname: string }>('SELECT datname FROM pg_database');
      expect(databases.rows.map((row) => row.datname)).toEqual(['postgres']);
      await demo.db.query("INSERT INTO schema_migrations (id, name) VALUES (999999, 'demo only')");
      // Nothing on disk: the run's data lives and dies with the process.
      expect(demo.dataDir).toBeUndefined();
      expect((await demoFolders()).filter((name) => name.startsWith(`fleet-treasury-demo-${process.pid}-`) && !demosBefore.includes(name))).toEqual([]);
    } finally {
      await demo.close();
    }
    // Each run starts blank: the run's data changed, the snapshot did not.
    const next = await openDemoDatabase(silent(), prepared);
    try {
      expect((await next.db.query('SELECT 1 FROM schema_migrations WHERE id = 999999')).rowCount).toBe(0);
    } finally {
      await next.close();
    }
  }, 180_000);

  it('still opens a migrated demo database, in a folder of its own removed on close, when the install prepared none', async () => {
    const demo = await openDemoDatabase(silent(), path.join(await newFolder(), 'missing'));
    try {
      const applied = await demo.db.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
      expect(applied.rows[0]?.count).toBe(migrations.length);
    } finally {
      await demo.close();
    }
    await expect(readdir(demo.dataDir ?? '')).rejects.toThrow();
  }, 180_000);
});

function silent() {
  return createLogger({ level: 'silent' });
}
