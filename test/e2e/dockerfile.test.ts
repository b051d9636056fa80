/**
 * The deployment recipe kept honest without a container engine: the committed tree (what a clean
 * clone holds, less .dockerignore) is the build context, the Dockerfile's stages run their own
 * commands (see test/support/dockerfile.ts; installs `--offline` from the npm cache the project's own
 * install filled, since tests reach no network), and the final stage's CMD starts against the sandbox
 * Fleet API and the local Slack workspace, in HTTP mode, as compose.yaml runs it.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { access, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { envSchema } from '../../src/config/config.js';
import type { Readiness } from '../../src/ops/readiness.js';
import { publicOpsRoutes } from '../../src/ops/routes.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { applyDockerignore, buildStages, parseDockerfile, type BuiltStage } from '../support/dockerfile.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SIGNING_SECRET = 'dockerfilesigningsecret0123456789';
const BOT_TOKEN = 'xoxb-dockerfile-0000-token';

/** The committed tree, as `git clone` would give it, into `folder`. */
function exportCommittedTree(folder: string): void {
  const archive = path.join(folder, '..', 'head.tar');
  execFileSync('git', ['archive', '--format=tar', '-o', archive, 'HEAD'], { cwd: ROOT });
  execFileSync('tar', ['-xf', archive, '-C', folder]);
}

/** Where the project's own `npm ci` left its downloads. */
function npmCache(): string {
  return execFileSync('npm', ['config', 'get', 'cache'], { cwd: ROOT, encoding: 'utf8' }).trim();
}

function imagePath(stage: BuiltStage, relative: string): string {
  return path.join(stage.root, path.posix.resolve(stage.workdir, relative));
}

interface Started {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<number | string>;
}

/** The final stage's CMD, from its WORKDIR, with its ENV and then `env`. */
function startCmd(stage: BuiltStage, env: Record<string, string>): Promise<Started> {
  const [command, ...args] = stage.cmd!;
  const child = spawn(command!, args, {
    cwd: imagePath(stage, '.'),
    env: { PATH: process.env.PATH ?? '', HOME: os.homedir(), TMPDIR: os.tmpdir(), ...stage.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split('\n').find((candidate) => candidate.includes('listening for Slack requests'));
      if (line) resolve({ child, port: (JSON.parse(line) as { port: number }).port, output: () => text, exited });
    });
    void exited.then((code) => reject(new Error(`${stage.cmd!.join(' ')} exited (${code}) before listening:\n${text}`)));
  });
}

async function readyzStatus(port: number): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: response.status, body: await response.text() };
}

describe('the Dockerfile, its stages run from a clean clone', () => {
  let folder: string;
  let final: BuiltStage;
  let sandbox: Sandbox | undefined;
  let slack: LocalSlack | undefined;
  let bot: Started | undefined;
  const seconds: Record<string, number> = {};

  beforeAll(async () => {
    const began = performance.now();
    folder = await mkdtemp(path.join(os.tmpdir(), 'ftb-dockerfile-'));
    const context = path.join(folder, 'context');
    await mkdir(context);
    exportCommittedTree(context);
    await applyDockerignore(context, await readFile(path.join(context, '.dockerignore'), 'utf8'));
    const stages = parseDockerfile(await readFile(path.join(context, 'Dockerfile'), 'utf8'));
    const built = await buildStages(stages, {
      context,
      root: folder,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: os.homedir(),
        TMPDIR: os.tmpdir(),
        npm_config_cache: npmCache(),
        npm_config_offline: 'true',
        npm_config_update_notifier: 'false',
      },
    });
    final = built.get(stages.at(-1)!.name)!;
    seconds.build = Math.round((performance.now() - began) / 1000);
    for (const stage of built.values()) for (const run of stage.runSeconds) seconds[`${stage.name}: ${run.command.slice(0, 40)}`] = run.seconds;
  }, 300_000);

  afterAll(async () => {
    if (bot && bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
    await slack?.close();
    await sandbox?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
    console.info(`Dockerfile test: ${JSON.stringify(seconds)} s`);
  }, 60_000);

  it('starts with the sandbox Fleet API and the local Slack workspace, /readyz answers 200 and the HEALTHCHECK passes', async () => {
    const began = performance.now();
    sandbox = await startSandbox({ seed: 5 });
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN });
    bot = await startCmd(final, {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      FLEET_API_URL: sandbox.url,
      FLEET_API_KEY: sandbox.apiKey,
      FLEET_VIEWERS: '*',
      LOG_LEVEL: 'info',
    });

    let readyz = await readyzStatus(bot.port);
    for (let tries = 0; readyz.status !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      readyz = await readyzStatus(bot.port);
    }
    expect(readyz, bot.output()).toEqual({ status: 200, body: '{"ready":true}' });

    const [command, ...args] = final.healthcheck!;
    const healthcheck = spawnSync(command!, args, {
      env: { PATH: process.env.PATH ?? '', ...final.env, PORT: String(bot.port) },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(healthcheck.status, healthcheck.stderr).toBe(0);

    slack.setAppUrl(`http://127.0.0.1:${bot.port}/slack/events`);
    const ack = await slack.runCommand({ userId: 'U0REQUESTER', channelId: 'C0TREASURY', text: 'balance' });
    expect(ack.status).toBe(200);
    const reply = await slack.waitFor(() => slack!.messages('C0TREASURY', { visibleTo: 'U0REQUESTER' }).at(-1), {
      timeoutMs: 15_000,
      message: 'the balance reply',
    });
    expect(JSON.stringify(reply)).toContain('USD');

    // `docker stop` sends SIGTERM to the CMD, PID 1 in the container: it ends cleanly.
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);
    seconds.start_and_checks = Math.round((performance.now() - began) / 1000);
  }, 60_000);

  it('keeps production dependencies only: nothing the lockfile marks dev, no local Slack workspace, no sources or tests', async () => {
    const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages)
      .filter(([key, entry]) => key.startsWith('node_modules/') && entry.dev)
      .map(([key]) => key);
    const present: string[] = [];
    for (const key of [...devOnly, 'node_modules/@fleet-treasury-bot/local-slack']) {
      // lstat: a workspace is linked, and its link counts even where its folder was not copied.
      if (
        await lstat(imagePath(final, key)).then(
          () => true,
          () => false,
        )
      )
        present.push(key);
    }
    expect(present).toEqual([]);
    expect(devOnly.length).toBeGreaterThan(0);

    expect((await readdir(imagePath(final, '.'))).sort()).toEqual(['assets', 'data', 'dist', 'node_modules', 'package-lock.json', 'package.json']);
    expect(
      await access(imagePath(final, 'dist/main.js')).then(
        () => true,
        () => false,
      ),
    ).toBe(true);
    // The runway chart's font and its licence, nothing else: the worker in dist/runway/chart/ reads it as ../../../assets/fonts.
    expect((await readdir(imagePath(final, 'assets/fonts'))).sort()).toEqual(['Inter-Regular.ttf', 'OFL.txt']);
    expect(
      await access(imagePath(final, 'dist/runway/chart/render-worker.js')).then(
        () => true,
        () => false,
      ),
    ).toBe(true);
    expect(
      await access(imagePath(final, 'dist/core/xlsx-worker.js')).then(
        () => true,
        () => false,
      ),
    ).toBe(true);
    expect(
      await access(imagePath(final, 'dist/pglite-blank')).then(
        () => true,
        () => false,
      ),
    ).toBe(true);
  });

  it('draws the runway chart from dist/ in the image: the worker thread, the native renderer and the shipped font', async () => {
    // A script file (not --eval: a worker thread would inherit --input-type), importing the image's own dist/.
    const renderer = pathToFileURL(imagePath(final, 'dist/runway/chart/renderer.js')).href;
    const script = `
      const { ChartRenderer } = await import(${JSON.stringify(renderer)});
      const renderer = new ChartRenderer();
      const runway = { known: true, today: '2026-11-26', timeZone: 'UTC', windowDays: 14, daysRead: 1, firstDay: '2026-11-25', lastDay: '2026-11-25', readAt: new Date(),
        currencies: [{ currency: 'USD', balanceMinor: 100000, averageDailyNetMinor: -10000, daysLeft: 10, zeroDay: '2026-12-06', history: [{ day: '2026-11-25', balanceMinor: 100000 }] }] };
      const chart = await renderer.render(runway, 'en');
      await renderer.close();
      console.log(JSON.stringify({ signature: chart.png.subarray(1, 4).toString('latin1'), width: chart.png.readUInt32BE(16) }));
    `;
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ftb-chart-'));
    const file = path.join(folder, 'draw.mjs');
    await writeFile(file, script);
    const run = spawnSync('node', [file], {
      cwd: imagePath(final, '.'),
      env: { PATH: process.env.PATH ?? '', ...final.env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    await rm(folder, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ signature: 'PNG', width: 800 });
  });

  it('reads an Excel workbook from dist/ in the image, exceljs in its worker thread', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Payouts').addRows([
      ['reference', 'amount'],
      ['P-1', 12.5],
    ]);
    const folder = await mkdtemp(path.join(os.tmpdir(), 'ftb-xlsx-'));
    await writeFile(path.join(folder, 'payouts.xlsx'), Buffer.from(await book.xlsx.writeBuffer()));
    const tableFile = pathToFileURL(imagePath(final, 'dist/core/table-file.js')).href;
    const script = `
      import { readFile } from 'node:fs/promises';
      const { readTableFile } = await import(${JSON.stringify(tableFile)});
      const bytes = await readFile(${JSON.stringify(path.join(folder, 'payouts.xlsx'))});
      const reading = await readTableFile(bytes, { encoding: 'utf-8', delimiter: ',', skipAbove: 0, skipBelow: 0, header: true }, { maxBytes: 1048576, maxRows: 10 });
      console.log(JSON.stringify(reading.ok ? reading.rows.map((row) => row.cells) : reading.problem));
    `;
    const file = path.join(folder, 'read.mjs');
    await writeFile(file, script);
    const run = spawnSync('node', [file], {
      cwd: imagePath(final, '.'),
      env: { PATH: process.env.PATH ?? '', ...final.env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    await rm(folder, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([['P-1', '12.5']]);
  });

  it("runs as the node image's unprivileged user, who is given the data folder and nothing else", () => {
    expect(final.user).toBe('node');
    expect(final.chowns).toEqual([['node:node', 'data']]);
    expect(final.cmd).toEqual(['node', 'dist/main.js']);
    expect(final.exposed).toEqual([final.env.PORT]);
  });
});

describe('compose.yaml and deploy/Caddyfile, read beside the Dockerfile', () => {
  const read = (file: string) => readFile(path.join(ROOT, file), 'utf8');

  it('give the replicas only variables the configuration reads, and write no secret', async () => {
    const compose = await read('compose.yaml');
    const botBlock = /^x-bot:.*?\n(?=\S)/ms.exec(compose)?.[0] ?? '';
    const botVariables = [...botBlock.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((match) => match[1]!);
    expect(botVariables).toEqual(['DATABASE_URL', 'SLACK_APP_TOKEN', 'PORT']);
    expect(botVariables.filter((name) => !Object.hasOwn(envSchema.shape, name))).toEqual([]);
    expect(compose).toContain('env_file: .env');
    expect(compose).toMatch(/DATABASE_URL: postgres:\/\/fleet:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/fleet/);
    expect(compose).not.toMatch(/xoxb-|xapp-|sk_live|sk_sandbox/);
  });

  it("send Slack's requests to PORT on both replicas, the port the image exposes, skipping one whose /healthz fails", async () => {
    const [compose, caddyfile, dockerfile] = await Promise.all([read('compose.yaml'), read('deploy/Caddyfile'), read('Dockerfile')]);
    const port = /^ {4}PORT: "(\d+)"$/m.exec(compose)?.[1];
    expect(compose).toMatch(/^ {2}bot-1: \*bot$/m);
    expect(compose).toMatch(/^ {2}bot-2: \*bot$/m);
    expect(caddyfile).toContain(`reverse_proxy bot-1:${port} bot-2:${port}`);
    expect(caddyfile).toMatch(/health_uri \/healthz\n/);
    expect(Object.keys(publicOpsRoutes({} as Readiness))).toContain('/healthz');
    expect(parseDockerfile(dockerfile).at(-1)!.instructions).toContainEqual(expect.objectContaining({ keyword: 'EXPOSE', args: port }));
  });
});
