/**
 * One process per embedded data folder. PGlite keeps the cluster in DATA_DIR and has no server
 * between processes: two processes writing the same files would corrupt it. The first process
 * writes a lock file in the folder with its pid, its host, and when that process started; a
 * second one reads it and stops at start.
 *
 * A lock left by a killed process must not block the next start, so a lock counts only while its
 * owner still runs: on the same host, while that pid exists and started at the recorded time
 * (a reused pid has another start time); from another host (a shared volume), while the owner
 * keeps touching the file (every HEARTBEAT_MS), since its pid cannot be checked from here.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE_NAME = 'fleet-treasury-bot.lock';
const HEARTBEAT_MS = 10_000;
/** A lock from another host whose file was not touched for this long is stale. */
const FOREIGN_STALE_MS = 3 * HEARTBEAT_MS;

interface LockOwner {
  pid: number;
  host: string;
  /** When the owner process started, as the kernel reports it (Linux), or the owner's own clock elsewhere. */
  started: string;
  since: string;
}

/** DATA_DIR is in use by another running process. */
export class DataDirLockedError extends Error {
  readonly code = 'data_dir_locked';
  constructor(dataDir: string, owner: LockOwner) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${owner.pid} on ${owner.host}, since ${owner.since}). ` +
        'The embedded database serves one process only: stop the other one, give this one its own DATA_DIR, ' +
        'or run replicas on a shared Postgres by setting DATABASE_URL.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/** Takes the folder's lock (the folder must exist), or throws DataDirLockedError naming DATA_DIR. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const mine: LockOwner = { pid: process.pid, host: os.hostname(), started: processStart(process.pid) ?? String(Math.round(Date.now() - process.uptime() * 1000)), since: new Date().toISOString() };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await createExclusive(file, text)) return held(file, text);
    const found = await readOwner(file);
    if (found === 'missing') continue;
    if (found !== 'unreadable' && (await isAlive(file, found))) throw new DataDirLockedError(dataDir, found);
    await moveAsideIfUnchanged(file, found === 'unreadable' ? undefined : JSON.stringify(found));
  }
  throw new Error(`Could not take the lock file ${file} in DATA_DIR: it keeps changing; is another process starting on the same folder?`);
}

function held(file: string, text: string): DataDirLock {
  // Touched now and then so that a process on another host sharing the volume sees the lock is live.
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      // Only our own lock is removed: never one another process took over in the meantime.
      const current = await readFile(file, 'utf8').catch(() => undefined);
      if (current === text) await unlink(file).catch(() => undefined);
    },
  };
}

/** Writes the lock aside and links it into place: the lock file appears whole or not at all. */
async function createExclusive(file: string, text: string): Promise<boolean> {
  const partial = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(partial, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(partial).catch(() => undefined);
  }
}

async function readOwner(file: string): Promise<LockOwner | 'missing' | 'unreadable'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started === 'string' && typeof value.since === 'string') {
      return value as LockOwner;
    }
  } catch {
    // Not a lock this app wrote whole (locks are linked into place complete): nobody holds it.
  }
  return 'unreadable';
}

async function isAlive(file: string, owner: LockOwner): Promise<boolean> {
  if (owner.host !== os.hostname()) {
    const touched = await stat(file).then((info) => info.mtimeMs, () => 0);
    return Date.now() - touched < FOREIGN_STALE_MS;
  }
  // Our own pid in the file is a previous life of this process (a container restarted as pid 1).
  if (owner.pid === process.pid) return false;
  if (!pidExists(owner.pid)) return false;
  const started = processStart(owner.pid);
  return started === undefined || started === owner.started;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process's start time in clock ticks since boot (Linux /proc), which tells a reused pid apart. */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

/**
 * Moves a stale lock out of the way. Two processes may both find it stale; the rename lets one of
 * them win, and a process that finds it moved a lock other than the one it judged (a new owner's)
 * puts it back and tries again.
 */
async function moveAsideIfUnchanged(file: string, judged: string | undefined): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readFile(aside, 'utf8').catch(() => undefined);
  if (judged !== undefined && moved !== judged) {
    await rename(aside, file).catch(() => undefined);
    return;
  }
  await unlink(aside).catch(() => undefined);
}
