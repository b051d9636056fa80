import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSettings } from '../../src/demo/demo.js';

const demoFolders = async () => (await readdir(os.tmpdir())).filter((name) => name.startsWith('fleet-treasury-demo-'));

describe('npm run demo', () => {
  let child: ChildProcess | undefined;
  // After a failure, the same Ctrl-C as the test's own, so that the demo still removes its folder.
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGINT');
  });

  it('starts with nothing configured, prints the page address, serves it, and stops cleanly on Ctrl-C', async () => {
    const foldersBefore = await demoFolders();
    // Only what a shell needs: no Slack, Fleet or database settings.
    child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../src/demo/main.ts', import.meta.url))], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DEMO_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));

    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address and instructions printed within 25 s:\n${output}`)), 25_000);
      child?.stdout?.on('data', () => {
        const found = /Open (http:\/\/localhost:\d+)/.exec(output)?.[1];
        if (found && output.includes('Ctrl-C stops')) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    });
    expect(output).toContain('Rita Requester');
    const page = await fetch(url.replace('localhost', '127.0.0.1'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Fleet Treasury');
    const created = (await demoFolders()).filter((name) => !foldersBefore.includes(name));
    expect(created).toHaveLength(1);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGINT: stopping the demo.');
    expect(await demoFolders()).not.toContain(created[0]);
  });

  it('reads only DEMO_PORT and LOG_LEVEL, and refuses a port that is not one', () => {
    expect(demoSettings({})).toEqual({ port: 3000, logLevel: 'warn' });
    expect(demoSettings({ DEMO_PORT: '4000', LOG_LEVEL: 'info', SLACK_BOT_TOKEN: 'xoxb-ignored' })).toEqual({ port: 4000, logLevel: 'info' });
    expect(() => demoSettings({ DEMO_PORT: 'http' })).toThrow('DEMO_PORT');
    expect(() => demoSettings({ DEMO_PORT: '70000' })).toThrow('DEMO_PORT');
  });
});
