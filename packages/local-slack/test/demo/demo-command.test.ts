import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSettings } from '../../src/demo/demo.js';

const demoFolders = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('fleet-treasury-demo-'));

describe('npm run demo', () => {
  let child: ChildProcess | undefined;
  // After a failure, a Ctrl-C to npm's child, so that the demo still removes its folder.
  afterAll(() => {
    if (child?.pid && child.exitCode === null) {
      for (const pid of readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean))
        process.kill(Number(pid), 'SIGINT');
    }
  });

  // A process manager (or a terminal closing) stops `npm run demo` by signalling the process npm started.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`starts with nothing configured, serves the page, answers /fleet balance, and stops cleanly on ${signal} sent to the process npm started`, async () => {
      // A folder left by a run that was killed outright: its process is gone, so the next start removes it.
      const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
      const leftOver = path.join(os.tmpdir(), `fleet-treasury-demo-${deadPid}-left`);
      await mkdir(leftOver, { recursive: true });

      const root = fileURLToPath(new URL('../../../../', import.meta.url));
      // Only what a shell needs: no Slack, Fleet or database settings.
      const npm = spawn('npm', ['run', '--silent', 'demo'], {
        cwd: root,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DEMO_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = npm;
      let output = '';
      npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address printed within 40 s:\n${output}`)), 40_000);
        npm.stdout?.on('data', () => {
          const found = /Open (http:\/\/localhost:\d+)/.exec(output)?.[1];
          if (found) {
            clearTimeout(timer);
            resolve(found.replace('localhost', '127.0.0.1'));
          }
        });
      });
      await new Promise<void>((resolve) =>
        output.includes('Ctrl-C stops') ? resolve() : npm.stdout?.on('data', () => output.includes('Ctrl-C stops') && resolve()),
      );
      expect(output).toContain('Rita Requester');
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Fleet Treasury');
      // Rita asks for the balance through the page's API, as the browser does, and the bot answers.
      const sent = await fetch(`${url}/workspace/command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ as: 'U0REQUESTER', channel: 'C0TREASURY', text: '/fleet balance' }),
      });
      expect(await sent.json()).toMatchObject({ ok: true, status: 200 });
      const balanceShown = async () => {
        const state = (await (await fetch(`${url}/workspace/state?as=U0REQUESTER`)).json()) as { messages: Record<string, Array<{ text: string }>> };
        return state.messages.C0TREASURY?.some((message) => message.text.startsWith('Fleet account balance')) ?? false;
      };
      await expect.poll(balanceShown, { timeout: 20_000 }).toBe(true);
      expect(await demoFolders()).not.toContain(path.basename(leftOver));
      const started = (await readFile(`/proc/${npm.pid}/task/${npm.pid}/children`, 'utf8')).trim().split(/\s+/).map(Number);
      expect(started).toHaveLength(1);
      process.kill(started[0] ?? 0, signal);
      await exited;
      expect(output).toContain(`${signal}: stopping the demo.`);
      await expect(fetch(url)).rejects.toThrow();
      // Its database lived in memory (or, when the install prepared none, in a folder of its own, now removed).
      expect((await demoFolders()).filter((name) => name.startsWith(`fleet-treasury-demo-${started[0]}-`))).toEqual([]);
    }, 60_000);
  }

  it('reads only DEMO_PORT, LOG_LEVEL and DEMO_TIMINGS, and refuses a port that is not one', () => {
    expect(demoSettings({})).toEqual({ port: 3000, logLevel: 'warn', timings: false });
    expect(demoSettings({ DEMO_PORT: '4000', LOG_LEVEL: 'info', DEMO_TIMINGS: '1', SLACK_BOT_TOKEN: 'xoxb-ignored' })).toEqual({
      port: 4000,
      logLevel: 'info',
      timings: true,
    });
    expect(() => demoSettings({ DEMO_PORT: 'http' })).toThrow('DEMO_PORT');
    expect(() => demoSettings({ DEMO_PORT: '70000' })).toThrow('DEMO_PORT');
  });
});
