import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir, type DataDirLock } from '../../src/store/data-dir-lock.js';

describe('the lock between holders that report the same hostname and pid', () => {
  let dataDir: string;
  const held: DataDirLock[] = [];
  // Two containers on one volume with the same hostname, each running the bot as pid 1.
  const twin = (pidNamespace: string) => ({ host: 'fleet-bot', pid: 1, pidNamespace, started: '4242' });
  const heartbeatMs = 100;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-lock-twins-'));
  });
  afterEach(async () => {
    await Promise.all(held.splice(0).map((lock) => lock.release()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses the second of two live containers with the same hostname, both pid 1', async () => {
    held.push(await lockDataDir(dataDir, { self: twin('pid:[4026532101]'), heartbeatMs }));

    await expect(lockDataDir(dataDir, { self: twin('pid:[4026532202]'), heartbeatMs })).rejects.toBeInstanceOf(DataDirLockedError);
  });

  it('refuses a second lock taken by the same process', async () => {
    held.push(await lockDataDir(dataDir));

    await expect(lockDataDir(dataDir)).rejects.toThrow(`DATA_DIR ${dataDir} is in use by another process (pid ${process.pid}`);
  });

  it('takes the lock of a killed twin once the lock has gone untouched for three heartbeats, and records its own instance', async () => {
    // A killed twin leaves its lock behind, touched last just now, and never touches it again.
    const killedText = JSON.stringify({ instance: 'a1b2c3d4e5f60718', ...twin('pid:[4026532101]'), since: new Date().toISOString() });
    await writeFile(path.join(dataDir, LOCK_FILE_NAME), killedText);

    const startedAt = Date.now();
    held.push(await lockDataDir(dataDir, { self: twin('pid:[4026532202]'), heartbeatMs }));

    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(2 * heartbeatMs);
    expect(Date.now() - startedAt).toBeLessThan(3 * heartbeatMs + 1_000);
    const mine = JSON.parse(await readFile(path.join(dataDir, LOCK_FILE_NAME), 'utf8')) as { instance: string };
    expect(mine.instance).toMatch(/^[0-9a-f]{16,}$/);
    expect(mine.instance).not.toBe((JSON.parse(killedText) as { instance: string }).instance);
  });
});
