/**
 * One process per embedded data folder. PGlite keeps the cluster in DATA_DIR and has no server
 * between processes: two processes writing the same files would corrupt it. The first process
 * writes a lock file in the folder with a random instance id, its pid, host, pid namespace and
 * when that process started; a second one reads it and stops at start.
 *
 * A lock left by a killed process must not block the next start, so a lock counts only while its
 * owner still runs. A pid says so only when it is read in the owner's own pid namespace on the
 * owner's host: then the lock counts while that pid exists and started at the recorded time (a
 * reused pid has another start time). Otherwise (another host on a shared volume, or another
 * container that reports the same hostname, where both may well be pid 1) the lock counts while its
 * owner keeps touching the file (every HEARTBEAT_MS): a lock touched lately is watched until it is
 * touched again (its owner lives) or goes stale (its owner is gone).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { link, open, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const LOCK_FILE_NAME = 'fleet-treasury-bot.lock';
const HEARTBEAT_MS = 10_000;
/** A lock whose file was not touched for this many heartbeats is stale (when its pid cannot tell). */
const STALE_HEARTBEATS = 3;

/** The process that holds, or asks for, the lock. */
export interface LockHolder {
  host: string;
  pid: number;
  /** The pid namespace (Linux `/proc/self/ns/pid`): pids compare only within one. */
  pidNamespace?: string;
  /** When the process started, as the kernel reports it (Linux), or the process's own clock elsewhere. */
  started: string;
}

interface LockOwner extends LockHolder {
  /** Drawn at random by each taker: the one thing two containers with the same hostname and pid do not share. */
  instance?: string;
  since: string;
}

export interface LockOptions {
  /** This process as the lock describes it (tests stand in for containers sharing a hostname). */
  self?: LockHolder;
  /** How often the holder touches the file. */
  heartbeatMs?: number;
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
export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DataDirLock> {
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const self = options.self ?? thisProcess();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const mine: LockOwner = { instance: randomBytes(12).toString('hex'), ...self, since: new Date().toISOString() };
  const text = JSON.stringify(mine);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await createExclusive(file, text)) return held(file, text, heartbeatMs);
    const found = await readOwner(file);
    if (found === 'missing') continue;
    if (found !== 'unreadable' && (await isAlive(file, found, self, heartbeatMs))) throw new DataDirLockedError(dataDir, found);
    await moveAsideIfUnchanged(file, found === 'unreadable' ? undefined : JSON.stringify(found));
  }
  throw new Error(`Could not take the lock file ${file} in DATA_DIR: it keeps changing; is another process starting on the same folder?`);
}

function thisProcess(): LockHolder {
  return {
    host: os.hostname(),
    pid: process.pid,
    pidNamespace: pidNamespace(),
    started: processStart(process.pid) ?? String(Math.round(Date.now() - process.uptime() * 1000)),
  };
}

function held(file: string, text: string, heartbeatMs: number): DataDirLock {
  // Touched now and then so that a process whose pid cannot tell (another host or container on the
  // volume) sees the lock is live; only while the file is still ours (same instance), never another's.
  const heartbeat = setInterval(() => {
    void readFile(file, 'utf8')
      .then((current) => {
        if (current !== text) return;
        const now = new Date();
        return utimes(file, now, now);
      })
      .catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      // Only our own lock (same instance) is removed: never one another process took over in the meantime.
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
    // instance and pidNamespace are optional: a lock written by an earlier version has neither.
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started === 'string' && typeof value.since === 'string') {
      return value as LockOwner;
    }
  } catch {
    // Not a lock this app wrote whole (locks are linked into place complete): nobody holds it.
  }
  return 'unreadable';
}

async function isAlive(file: string, owner: LockOwner, self: LockHolder, heartbeatMs: number): Promise<boolean> {
  if (owner.host !== self.host || owner.pidNamespace !== self.pidNamespace) {
    // Its pid means nothing here: another host, or another container that reports the same hostname.
    return touchedAgain(file, heartbeatMs);
  }
  // Our own pid: this very process under another instance holds it, or a previous process whose pid we now have.
  if (owner.pid === self.pid) return owner.started === self.started;
  if (!pidExists(owner.pid)) return false;
  const started = processStart(owner.pid);
  return started === undefined || started === owner.started;
}

/**
 * Whether the lock's owner still touches it. A file untouched for STALE_HEARTBEATS heartbeats is
 * stale; one touched lately is watched until it is touched again (alive) or goes stale (its owner
 * was killed lately, as when a container restarts on the same volume): a start waits for that.
 */
async function touchedAgain(file: string, heartbeatMs: number): Promise<boolean> {
  const first = await touchedAt(file);
  if (first === undefined) return false;
  const staleAt = first + STALE_HEARTBEATS * heartbeatMs;
  while (Date.now() < staleAt) {
    await sleep(Math.min(Math.ceil(heartbeatMs / 10), Math.max(1, staleAt - Date.now())));
    const last = await touchedAt(file);
    if (last === undefined) return false;
    if (last !== first) return true;
  }
  return false;
}

async function touchedAt(file: string): Promise<number | undefined> {
  return stat(file).then(
    (info) => info.mtimeMs,
    () => undefined,
  );
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

/** This process's pid namespace (Linux), e.g. `pid:[4026531836]`; each container has its own. */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
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
