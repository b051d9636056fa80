/**
 * `npm run demo -- --hosted` as a person runs it: with only DATABASE_URL set it prints the Add to
 * Slack page and each partner's key, serves the page, and on Ctrl-C drops the schema and the
 * confined role it made.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testPostgresUrl } from '../../../../test/support/databases.js';

describe.runIf(testPostgresUrl)('npm run demo -- --hosted', () => {
  let stopDemo: (() => void) | undefined;
  afterAll(() => stopDemo?.());

  it('prints the install page and the partners’ keys, serves the page, and drops its schema and role on Ctrl-C', async () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const npm = spawn('npm', ['run', '--silent', 'demo', '--', '--hosted'], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DEMO_PORT: '0', DATABASE_URL: testPostgresUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
    await expect.poll(() => output.includes('Ctrl-C stops'), { timeout: 40_000, interval: 200 }).toBe(true);
    const started = (await readFile(`/proc/${npm.pid}/task/${npm.pid}/children`, 'utf8')).trim().split(/\s+/).map(Number);
    stopDemo = () => process.kill(started[0] ?? 0, 'SIGINT');

    expect(output).toMatch(/Alpha Motors +sk_sandbox_alpha_\w+/);
    expect(output).toMatch(/Beta Logistics +sk_sandbox_beta_\w+/);
    const installUrl = /Open (http:\/\/127\.0\.0\.1:\d+\/slack\/install)/.exec(output)?.[1] ?? '';
    const install = await fetch(installUrl);
    expect(install.status).toBe(200);
    expect(await install.text()).toContain('Add to Slack');
    const [, schema, role] = /schema (t_\w+) and role (fleet_app_\w+)/.exec(output) ?? [];
    expect(await exists(schema!, role!)).toEqual({ schema: true, role: true });

    stopDemo();
    stopDemo = undefined;
    await exited;
    expect(output).toContain('SIGINT: stopping the demo.');
    expect(await exists(schema!, role!)).toEqual({ schema: false, role: false });
  }, 60_000);
});

async function exists(schema: string, role: string): Promise<{ schema: boolean; role: boolean }> {
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: boolean; role: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema, EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $2) AS role',
      [schema, role],
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}
