import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir, type DataDirLock } from '../../src/store/data-dir-lock.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../support/bot-harness.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';

describe('one process per DATA_DIR', () => {
  let slack: LocalSlack;
  let dataDir: string;
  const started: BotProcess[] = [];
  const start = () => {
    const bot = startBotProcess({
      SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: slack.apiUrl,
      PORT: '0', HOST: '127.0.0.1', FLEET_API_URL: 'sandbox', DATA_DIR: dataDir, LOG_LEVEL: 'info',
    });
    started.push(bot);
    return bot;
  };

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN });
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((bot) => bot.stop('SIGKILL')));
    await rm(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await slack?.close();
  });

  it('stops a second process on the same folder at start, naming DATA_DIR and DATABASE_URL, and leaves the first one running', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-lock-'));
    const first = start();
    await first.ready;

    const second = start();
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`DATA_DIR ${dataDir} is in use by another process (pid ${first.child.pid}`);
    expect(second.output()).toContain('DATABASE_URL');

    // The first still owns its lock, and gives it up when stopped cleanly.
    expect(JSON.parse(await readFile(path.join(dataDir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: first.child.pid });
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(await readdir(dataDir)).not.toContain(LOCK_FILE_NAME);
  }, 90_000);

  it('starts on a folder whose previous process was killed with SIGKILL, and keeps its rows', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-lock-'));
    const killed = start();
    await killed.ready;
    expect(await killed.stop('SIGKILL')).toBe('SIGKILL');
    // The dead process's lock is still there; it must not block the next start.
    expect(await readdir(dataDir)).toContain(LOCK_FILE_NAME);

    const next = start();
    await next.ready;
    expect(JSON.parse(await readFile(path.join(dataDir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({ pid: next.child.pid });
    // Same cluster: its migrations were recorded by the killed process, so none is applied again.
    expect(next.output()).not.toContain('applied database migration');
    expect(killed.output()).toContain('applied database migration');
  }, 90_000);
});

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
