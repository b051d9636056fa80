import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDemoDatabase } from '../../src/demo/demo-database.js';
import { prepareDemoCluster } from '../../src/demo/prepare-cluster.js';
import { createLogger, migrations } from '../../src/demo/product-store.js';

const SCRIPTS = fileURLToPath(new URL('../../scripts/', import.meta.url));
const folders: string[] = [];
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

  it('prepares a blank cluster with every migration, which each demo database starts from', async () => {
    const prepared = path.join(await newFolder(), 'pglite-blank');
    expect(await prepareDemoCluster(prepared)).toBe('made');
    expect(await prepareDemoCluster(prepared)).toBe('ready');
    const demo = await openDemoDatabase(silent(), prepared);
    try {
      const applied = await demo.db.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
      expect(applied.rows[0]?.count).toBe(migrations.length);
      // The demo copies only the app's database, not the two templates it never uses.
      const databases = await demo.db.query<{ datname: string }>('SELECT datname FROM pg_database');
      expect(databases.rows.map((row) => row.datname)).toEqual(['postgres']);
      await demo.db.query("INSERT INTO schema_migrations (id, name) VALUES (999999, 'demo only')");
    } finally {
      await demo.close();
    }
    // Each run starts blank: the copy changed, the prepared cluster did not.
    const next = await openDemoDatabase(silent(), prepared);
    try {
      expect((await next.db.query('SELECT 1 FROM schema_migrations WHERE id = 999999')).rowCount).toBe(0);
    } finally {
      await next.close();
    }
    await expect(readdir(next.dataDir)).rejects.toThrow();
  }, 180_000);

  it('still opens a migrated demo database when the install prepared none', async () => {
    const demo = await openDemoDatabase(silent(), path.join(await newFolder(), 'missing'));
    try {
      const applied = await demo.db.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
      expect(applied.rows[0]?.count).toBe(migrations.length);
    } finally {
      await demo.close();
    }
  }, 180_000);
});

function silent() {
  return createLogger({ level: 'silent' });
}
