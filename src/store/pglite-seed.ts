/**
 * A new DATA_DIR starts as a copy of a blank cluster instead of running initdb in the app's
 * process: initdb inside PGlite takes seconds and leaves its WebAssembly memory (hundreds of MB)
 * resident for the life of the process; copying a blank cluster's files takes milliseconds.
 *
 * The blank cluster comes from, in order: `dist/pglite-blank/`, made by `npm run build`
 * (build-blank-cluster.ts); a copy cached in the temporary folder per PGlite version; or, when
 * neither exists, a child process that runs initdb, exits (taking its memory with it) and leaves
 * the cache for next time.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { access, copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { LOCK_FILE_NAME } from './data-dir-lock.js';

/** Written last into a seeded folder's blank cluster: its PGlite version. */
const VERSION_FILE = '.pglite-version';
/** A cluster is complete once Postgres's own version file is there; it is copied last. */
const CLUSTER_MARK = 'PG_VERSION';

/** Where `npm run build` leaves the blank cluster: next to the compiled app. */
export const BUILT_BLANK_CLUSTER = fileURLToPath(new URL('../pglite-blank', import.meta.url));

/** True when `dataDir` holds no cluster yet (missing, empty, or a copy cut short). */
export async function needsCluster(dataDir: string): Promise<boolean> {
  return !(await exists(path.join(dataDir, CLUSTER_MARK)));
}

/** Copies a blank cluster into `dataDir` (which may hold other files, such as the lock). */
export async function seedCluster(dataDir: string): Promise<'built' | 'cached' | 'made'> {
  const { dir, source } = await blankClusterDir();
  await copyCluster(dir, dataDir);
  return source;
}

/**
 * Copies the blank cluster in `dir` into `dataDir` when `dir` holds one made by this PGlite version
 * (the demo's, prepared at install with the migrations applied); false, copying nothing, otherwise.
 */
export async function seedClusterFrom(dir: string, dataDir: string): Promise<boolean> {
  if (!(await hasBlankCluster(dir))) return false;
  await copyCluster(dir, dataDir);
  return true;
}

/** True when `dir` holds a blank cluster made by this PGlite version. */
export async function hasBlankCluster(dir: string): Promise<boolean> {
  return isBlankCluster(dir, await pgliteVersion());
}

async function copyCluster(dir: string, dataDir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const relative = (entry: Dirent) => path.relative(dir, path.join(entry.parentPath, entry.name));
  for (const entry of entries) if (entry.isDirectory()) await mkdir(path.join(dataDir, relative(entry)), { recursive: true });
  // About a thousand files: copied side by side, which takes half the time of fs.cp's one by one.
  const files = entries
    .filter((entry) => entry.isFile())
    .map(relative)
    .filter((file) => ![CLUSTER_MARK, VERSION_FILE, LOCK_FILE_NAME].includes(file));
  await Promise.all(files.map((file) => copyFile(path.join(dir, file), path.join(dataDir, file))));
  // Postgres's version file last: a copy cut short is seen as no cluster and made again.
  await copyFile(path.join(dir, CLUSTER_MARK), path.join(dataDir, CLUSTER_MARK));
}

async function blankClusterDir(): Promise<{ dir: string; source: 'built' | 'cached' | 'made' }> {
  const version = await pgliteVersion();
  if (await isBlankCluster(BUILT_BLANK_CLUSTER, version)) return { dir: BUILT_BLANK_CLUSTER, source: 'built' };
  const cached = path.join(os.tmpdir(), `fleet-treasury-bot-pglite-${version}-blank-cluster`);
  if (await isBlankCluster(cached, version)) return { dir: cached, source: 'cached' };
  await makeBlankCluster(cached);
  return { dir: cached, source: 'made' };
}

async function isBlankCluster(dir: string, version: string): Promise<boolean> {
  const recorded = await readFile(path.join(dir, VERSION_FILE), 'utf8').catch(() => undefined);
  return recorded === version;
}

/**
 * Runs initdb in a child Node process into a folder aside, then renames it to `target`, so that a
 * process starting at the same time never copies half a cluster. Used by the build too.
 */
export async function makeBlankCluster(target: string): Promise<void> {
  const version = await pgliteVersion();
  if (await isBlankCluster(target, version)) return;
  const partial = `${target.replace(/\/$/, '')}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(partial, { recursive: true });
  try {
    const entry = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
    const script = `const { PGlite } = await import(${JSON.stringify(entry)}); const lite = await PGlite.create({ dataDir: ${JSON.stringify(partial)} }); await lite.close();`;
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 120_000 });
    await writeFile(path.join(partial, VERSION_FILE), version);
    await rm(target, { recursive: true, force: true });
    await rename(partial, target).catch(async (error: unknown) => {
      // Another process got there first with the same blank cluster: use theirs.
      if (!(await isBlankCluster(target, version))) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

export async function pgliteVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = JSON.parse(await readFile(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version);
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
