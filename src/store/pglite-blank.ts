/**
 * A dump of a blank PGlite cluster, kept in the temporary folder per PGlite version: a new cluster
 * spends seconds in initdb, loading the dump takes a fraction. The demo and the tests start from it.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

let blank: Promise<Blob> | undefined;

/** The dump, made once per machine and PGlite version, and shared by every process after that. */
export function blankPgliteCluster(): Promise<Blob> {
  blank ??= loadOrMake();
  return blank;
}

async function loadOrMake(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `fleet-treasury-bot-pglite-${await pgliteVersion()}-blank.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    const lite = await PGlite.create();
    const dump = await lite.dumpDataDir('none');
    await lite.close();
    // Written aside and renamed, so that a process starting at the same time never reads half a dump.
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
