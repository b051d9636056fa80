import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { LOCK_FILE_NAME } from '../../src/store/data-dir-lock.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../support/bot-harness.js';
import { startBotProcess, type BotProcess } from '../support/bot-process.js';

describe('one process per DATA_DIR', () => {
  let slack: LocalSlack;
  let dataDir: string;
  const started: BotProcess[] = [];
  const start = () => {
    const bot = startBotProcess({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      FLEET_API_URL: 'sandbox',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
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
