/**
 * A scheduled payout and a process killed with SIGKILL while its POST is in flight (after the lease
 * and the release, before the Fleet API answers): the next process neither sends it again nor loses
 * it; the payout is unknown and looked for by its reference, as any interrupted payout.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { createLogger } from '../../../src/core/logger.js';
import { openDatabase, type Db } from '../../../src/store/index.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../../support/bot-harness.js';
import { startBotProcess, type BotProcess } from '../../support/bot-process.js';
import { scheduling } from '../../payouts/schedule/support.js';
import { APPROVER, mobileForm, REQUESTER } from '../../support/payout-doubles.js';

describe("a scheduled payout and a process killed between its release and the Fleet API's answer", () => {
  let slack: LocalSlack;
  let fleet: Server;
  let fleetUrl: string;
  let dataDir: string;
  const posts: string[] = [];
  const held: Array<() => void> = [];
  const processes: BotProcess[] = [];

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN });
    // POSTs are recorded and never answered; the transaction list cannot be read (so the outcome stays unknown).
    fleet = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.method === 'POST') {
          posts.push(body);
          held.push(() => response.destroy());
          return;
        }
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
      });
    });
    await new Promise<void>((resolve) => fleet.listen(0, '127.0.0.1', resolve));
    fleetUrl = `http://127.0.0.1:${(fleet.address() as AddressInfo).port}`;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-schedule-kill-'));
  });
  afterAll(async () => {
    await Promise.all(processes.map((bot) => bot.stop('SIGKILL')));
    for (const release of held) release();
    await new Promise((resolve) => fleet?.close(resolve));
    await slack?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const open = () => openDatabase({ dataDir, logger: createLogger({ level: 'silent' }) });
  const start = () => {
    const bot = startBotProcess({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      FLEET_API_URL: fleetUrl,
      FLEET_API_KEY: 'test-key',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      LEDGER_ENABLED: 'false',
      FLEET_REQUESTERS: REQUESTER,
      FLEET_APPROVERS: APPROVER,
      PAYOUT_NEW_RECIPIENT_APPROVALS: '1',
    });
    processes.push(bot);
    return bot;
  };

  it('sends it once and keeps it: the next process finds it unknown and looks for it, it does not post it again', async () => {
    // Scheduled and approved while the app was down, for a minute that has just passed (within the catch-up window).
    const due = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    let db: Db = await open();
    const { schedule, service, clock } = scheduling(db);
    clock.set(new Date(due.getTime() - 10 * 60_000));
    const request = await schedule(
      {
        firstDay: due.toISOString().slice(0, 10),
        time: { hour: due.getUTCHours(), minute: due.getUTCMinutes() },
        repeat: 'once',
      },
      { ...mobileForm, reference: 'KILL-0001' },
    );
    expect(await service.approve(request.id, APPROVER)).toMatchObject({ ok: true, request: { state: 'approved' } });
    await db.close();

    const first = start();
    await first.ready;
    await expect.poll(() => posts.length, { timeout: 30_000 }).toBe(1);
    expect(JSON.parse(posts[0]!)).toMatchObject({ reference: 'KILL-0001' });
    expect(await first.stop('SIGKILL')).toBe('SIGKILL');

    const second = start();
    await second.ready;
    // Recovery at start finds the payout left sending: unknown, looked for in the (unreadable) list.
    await expect.poll(() => second.output().includes('could not read the whole transaction list'), { timeout: 30_000 }).toBe(true);
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(posts).toHaveLength(1);

    db = await open();
    const stored = scheduling(db).service;
    const occurrence = (await stored.get(request.id))?.schedule?.occurrences[0];
    // The one-off is sent as the scheduled request itself, with the reference typed.
    expect(occurrence).toMatchObject({ state: 'released', payoutId: request.id });
    expect(await stored.get(request.id)).toMatchObject({ state: 'unknown', reference: 'KILL-0001', attempts: 1 });
    await db.close();
  }, 120_000);
});
