import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// `npm start` run in a temporary copy of package.json, so that whether dist/ exists is up to the test.
describe('npm start', () => {
  let folder: string;
  const npmStart = () => spawnSync('npm', ['start', '--silent'], { cwd: folder, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: folder } });

  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'ftb-start-'));
    await copyFile(new URL('../package.json', import.meta.url), path.join(folder, 'package.json'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('says to run npm run build first when the app was never built, instead of a module error', () => {
    const run = npmStart();

    expect(run.status).toBe(1);
    expect(run.stderr).toContain('run npm run build first');
    expect(run.stderr).not.toContain('MODULE_NOT_FOUND');
  });

  it('runs the built app, dist/main.js, with Node once it is built', async () => {
    await mkdir(path.join(folder, 'dist'));
    await writeFile(path.join(folder, 'dist/main.js'), "console.log('built app running as', process.argv[1]);\n");

    const run = npmStart();

    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`built app running as ${path.join(folder, 'dist/main.js')}`);
  });
});
