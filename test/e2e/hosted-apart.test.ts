/**
 * Two hosted workspaces driven through every surface with the same people's and channels' ids and
 * the same payout: each partner's money, feed, export, language choices and home stay its own, every
 * row in the database is its workspace's, no message in one names the other's transactions, and the
 * host's /metrics and logs tell the workspaces apart without a key in them.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalSlack, SlackMessage } from '@fleet-treasury-bot/local-slack';
import { RECIPIENT_ACTIONS } from '../../src/slack/ids.js';
import { blockText, CHANNELS, PEOPLE, type Harness } from '../support/bot-harness.js';
import { testPostgresUrl } from '../support/databases.js';
import { ADMIN, PARTNERS, startHostedHarness, type HostedHarness } from '../support/hosted-harness.js';
import { batchRow, clickOnBatch, submitBatch } from '../support/batch-flow.js';
import { approveAs, MOBILE_FIELDS, openPayoutForm, requestPayout, waitForApprovalMessage } from '../support/payout-flow.js';

const [ALPHA, BETA] = PARTNERS;
const RITA = PEOPLE.requester;
const ADA = PEOPLE.approver2;
const SETTINGS = {
  FLEET_VIEWERS: `${RITA},${ADMIN},${ADA}`,
  FLEET_REQUESTERS: RITA,
  FLEET_APPROVERS: `${ADMIN},${ADA}`,
  APPROVAL_CHANNEL_ID: CHANNELS.approvals,
  FEED_CHANNEL_ID: CHANNELS.feed,
  DIGEST_CHANNEL_ID: CHANNELS.treasury,
  DIGEST_TIME: '00:00',
  DIGEST_TIMEZONE: 'UTC',
  PAYOUT_NEW_RECIPIENT_APPROVALS: '1',
  PAYOUT_BATCH_RATE: '1000',
};
/** The same payout, to the same person with the same reference, in both workspaces. */
const PAYOUT = { ...MOBILE_FIELDS, reference: 'INV-2026-0042' };

describe.runIf(testPostgresUrl)('two hosted workspaces with the same ids, kept apart on every surface', () => {
  let h: HostedHarness;
  const ws = (teamId: string): LocalSlack => h.grid.workspace(teamId);
  /** The payout helpers need only a workspace: the one of this partner. */
  const flowOf = (teamId: string) => ({ slack: ws(teamId) }) as Harness;
  const keyOf = (teamId: string) => PARTNERS.find((partner) => partner.teamId === teamId)!.fleetKey;
  const account = (teamId: string) => h.sandbox.account(keyOf(teamId));
  /** Runs `/fleet <text>` as `userId` in the treasury channel and waits for their next new reply. */
  const ask = async (teamId: string, userId: string, text: string) => {
    const slack = ws(teamId);
    const before = slack.messages(CHANNELS.treasury, { visibleTo: userId }).length;
    await slack.runCommand({ userId, channelId: CHANNELS.treasury, command: '/fleet', text });
    return slack.waitFor(() => slack.messages(CHANNELS.treasury, { visibleTo: userId })[before], { message: `a reply to /fleet ${text} for ${userId}` });
  };
  const dmOf = (userId: string) => `D${userId.slice(1)}`;
  const textOf = (message: SlackMessage) => `${message.text}\n${blockText(message)}`;
  const payoutIds: Record<string, string> = {};
  const settled = async (teamId: string) => {
    const running = await h.host.botFor(teamId);
    if (!running?.feed || !running.ledger) return false;
    return (await running.ledger.reader.status()).historyComplete && (await running.feed.status()).started;
  };

  beforeAll(async () => {
    h = await startHostedHarness(testPostgresUrl!, {
      hostEnv: {
        LEDGER_ENABLED: 'true',
        LEDGER_POLL_SECONDS: '60',
        LEDGER_HISTORY_PAGE_DELAY_MS: '0',
        LEDGER_SWEEP_MINUTES: '0',
        LEDGER_REWALK_HOURS: '0',
        FEED_POLL_INTERVAL_SECONDS: '5',
        METRICS_PORT: '0',
      },
      botDefaults: { payoutTimers: { batchEveryMs: 50, maintenanceEveryMs: 100, resultsRetrySeconds: 0.2 } },
    });
    for (const partner of PARTNERS) {
      // Each workspace's app "has been running since before yesterday": its bot posts yesterday's digest once it starts.
      await h.host.db.forTenant(partner.teamId).query('INSERT INTO digest_state (id, first_day) VALUES (1, $1)', [lastDays(1).since]);
      const slack = ws(partner.teamId);
      expect(await h.install(partner.teamId)).toContain('/fleet connect');
      // As docs/setup-slack.md asks: the bot invited into every channel its settings name.
      for (const channel of [CHANNELS.approvals, CHANNELS.feed, CHANNELS.treasury]) slack.invite(channel);
      for (const [text, callbackId, values, done] of [
        ['connect', 'hosting_connect', { fleet_api_key: { value: partner.fleetKey } }, 'connected to its Fleet account'],
        ['settings', 'hosting_settings', Object.fromEntries(Object.entries(SETTINGS).map(([name, value]) => [name, { value }])), 'settings are saved'],
      ] as const) {
        await slack.runCommand({ userId: ADMIN, channelId: CHANNELS.treasury, command: '/fleet', text });
        const modal = await slack.waitFor(() => slack.views(ADMIN).find((view) => view.view.callback_id === callbackId), {
          message: `the ${callbackId} modal`,
        });
        await slack.submitView({ userId: ADMIN, viewId: modal.id, values });
        await slack.waitFor(() => slack.messages(dmOf(ADMIN)).find((message) => message.text.includes(done)), { message: `"${done}" in ${partner.teamId}` });
      }
    }
    // Each bot built with its settings, its ledger loaded and its feed past its first poll (which posts nothing from the past).
    for (let tries = 0; !(await Promise.all(PARTNERS.map(({ teamId }) => settled(teamId)))).every(Boolean); tries += 1) {
      if (tries > 300) throw new Error('the workspace bots never loaded their ledgers and started their feeds');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 60_000);
  afterAll(async () => {
    if (process.env.HOSTED_LOGS) (await import('node:fs')).writeFileSync(process.env.HOSTED_LOGS, h?.logs.join('') ?? '');
    await h?.close();
  });

  it('sends the same payout once in each workspace, each from its own Fleet account', async () => {
    for (const { teamId } of PARTNERS) {
      const flow = flowOf(teamId);
      const id = await requestPayout(flow, 'mobile', PAYOUT, RITA);
      expect(await approveAs(flow, ADMIN, id)).not.toContain('could not');
      await waitForApprovalMessage(flow, id, '*Sent.*', 15_000);
      payoutIds[teamId] = id;
    }
    expect(payoutIds[ALPHA.teamId]).not.toBe(payoutIds[BETA.teamId]);
    for (const { teamId } of PARTNERS) {
      const payouts = account(teamId).payouts();
      expect(payouts).toHaveLength(1);
      expect(JSON.stringify(payouts[0]!.body)).toContain(PAYOUT.phone);
      // Each workspace's approval message names its own account's transaction, never the other's.
      const other = teamId === ALPHA.teamId ? BETA.teamId : ALPHA.teamId;
      const approval = textOf(
        ws(teamId)
          .messages(CHANNELS.approvals)
          .find((message) => message.text.includes(payoutIds[teamId]!))!,
      );
      expect(approval).toContain(payouts[0]!.transactionId);
      expect(approval).not.toContain(account(other).payouts()[0]!.transactionId);
    }
  }, 45_000);

  it('sends the same bulk payout file once in each workspace, from its own account', async () => {
    const batchIds: string[] = [];
    for (const { teamId } of PARTNERS) {
      const flow = flowOf(teamId);
      const id = await submitBatch(flow, [batchRow(1), batchRow(2, '20.50')]);
      await clickOnBatch(flow, ADMIN, id, 'approve');
      const slack = ws(teamId);
      const done = await slack.waitFor(() => slack.messages(dmOf(RITA)).find((message) => message.text.includes(`${id}* is finished`)), {
        message: `the results of ${id} in ${teamId}`,
        timeoutMs: 15_000,
      });
      expect(done.text).toContain('2 sent, 0 failed, 0 unknown, 0 not sent');
      batchIds.push(id);
    }
    expect(batchIds[0]).not.toBe(batchIds[1]);
    for (const { teamId } of PARTNERS) {
      const numbers = account(teamId)
        .payouts()
        .map((payout) => JSON.stringify(payout.body));
      // The single payout, then the file's two rows: each sent once, from this account.
      expect(numbers).toHaveLength(3);
      expect(numbers.filter((body) => body.includes('243812300001'))).toHaveLength(1);
      expect(numbers.filter((body) => body.includes('243812300002'))).toHaveLength(1);
    }
  }, 40_000);

  it('posts yesterday’s digest in each workspace from its own partner’s figures', async () => {
    const digests: string[] = [];
    for (const { teamId } of PARTNERS) {
      const slack = ws(teamId);
      const digest = await slack.waitFor(() => slack.messages(CHANNELS.treasury).find((message) => message.text.includes('Daily digest')), {
        message: `yesterday's digest in ${teamId}`,
        timeoutMs: 15_000,
      });
      // Its largest movements are its own account's transactions of yesterday.
      const own = new Set(
        account(teamId)
          .transactions()
          .map((tx) => tx.reference),
      );
      const named = [...blockText(digest).matchAll(/`([A-Z]+-[A-Z0-9]+)`/g)].map((match) => match[1]!);
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((reference) => !own.has(reference))).toEqual([]);
      digests.push(blockText(digest));
    }
    expect(digests[0]).not.toBe(digests[1]);
  });

  it('posts a new transaction of Alpha’s account to Alpha’s feed channel only', async () => {
    const added = account(ALPHA.teamId).addTransaction({ reference: 'ALPHA-FEED-ONLY' });
    const alpha = ws(ALPHA.teamId);
    await alpha.waitFor(() => alpha.messages(CHANNELS.feed).find((message) => textOf(message).includes(added.reference)), {
      message: "Alpha's new transaction in Alpha's feed",
      timeoutMs: 15_000,
    });
    // Beta's feed polled since (every 5 s) and has nothing of it.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    expect(ws(BETA.teamId).messages(CHANNELS.feed).map(textOf).join('\n')).not.toContain(added.reference);
  }, 30_000);

  it('lists and exports to each workspace its own partner’s transactions only', async () => {
    for (const { teamId } of PARTNERS) {
      const other = teamId === ALPHA.teamId ? BETA.teamId : ALPHA.teamId;
      const listing = textOf(await ask(teamId, RITA, 'tx'));
      expect(listing).toContain(account(teamId).transactions()[0]!.reference);
      expect(listing).not.toContain(account(other).transactions()[0]!.reference);

      const slack = ws(teamId);
      // The last three whole days: what the ledger held before the drive began.
      const { since, until, before } = lastDays(3);
      await slack.runCommand({ userId: RITA, channelId: CHANNELS.treasury, command: '/fleet', text: `export since:${since} until:${until}` });
      const file = await slack.waitFor(() => slack.messages(dmOf(RITA)).find((message) => message.files?.[0]?.name.startsWith('fleet-transactions')), {
        message: `the export file in ${teamId}`,
        timeoutMs: 15_000,
      });
      const bytes = slack.file(file.files![0]!.id)!.bytes!.toString('utf8');
      const rows = parse<{ reference: string }>(bytes, { bom: true, columns: true }).map((row) => row.reference.replace(/^'/, ''));
      const expected = account(teamId)
        .transactions()
        .filter((tx) => tx.date >= since && tx.date < before)
        .map((tx) => tx.reference);
      expect(expected.length).toBeGreaterThan(0);
      expect(new Set(rows)).toEqual(new Set(expected));
      const otherReferences = new Set(
        account(other)
          .transactions()
          .map((tx) => tx.reference),
      );
      expect(rows.filter((reference) => otherReferences.has(reference))).toEqual([]);
    }
  }, 30_000);

  it('keeps a language chosen in Alpha to Alpha', async () => {
    expect((await ask(ALPHA.teamId, RITA, 'language fr')).text).toContain('français');
    expect((await ask(ALPHA.teamId, RITA, 'balance')).text).toContain('Solde du compte');
    expect((await ask(BETA.teamId, RITA, 'balance')).text).toContain('Fleet account balance');
    const beta = await h.host.db.forTenant(BETA.teamId).query('SELECT user_id FROM language_choices');
    expect(beta.rows).toEqual([]);
  });

  it('shows each workspace’s home its own partner’s balance', async () => {
    for (const { teamId } of PARTNERS) {
      const other = teamId === ALPHA.teamId ? BETA.teamId : ALPHA.teamId;
      const slack = ws(teamId);
      const before = slack.home(ADA)?.hash;
      expect((await slack.openHome({ userId: ADA })).status).toBe(200);
      const home = await slack.waitFor(
        () => {
          const view = slack.home(ADA);
          return view && view.hash !== before && JSON.stringify(view.view.blocks).includes('USD') ? view : undefined;
        },
        { message: `Ada's home in ${teamId}` },
      );
      const text = JSON.stringify(home.view.blocks);
      expect(text).toContain(usd(account(teamId).balances().USD!));
      expect(text).not.toContain(usd(account(other).balances().USD!));
    }
  });

  it('keeps every row of every table its own workspace’s', async () => {
    const tables = await h.host.db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_schema = current_schema() ORDER BY table_name",
    );
    expect(tables.rows.length).toBeGreaterThan(10);
    // The registry of workspaces is readable by every tenant by design (it lists the tenants served, and holds no money, people or secrets).
    const tenantTables = tables.rows.filter(({ table_name: table }) => table !== 'workspaces');
    const seen: Record<string, Record<string, number>> = {};
    for (const { teamId } of PARTNERS) {
      seen[teamId] = {};
      for (const { table_name: table } of tenantTables) {
        const { rows } = await h.host.db
          .forTenant(teamId)
          .query<{ tenant_id: string; n: string }>(`SELECT tenant_id, count(*)::text AS n FROM ${table} GROUP BY tenant_id`);
        for (const row of rows) expect(row.tenant_id, `${table} read as ${teamId}`).toBe(teamId);
        seen[teamId][table] = Number(rows[0]?.n ?? 0);
      }
    }
    // Both wrote where the drive writes: a payout each, a ledger each, a language choice in Alpha only.
    for (const { teamId } of PARTNERS) {
      expect(seen[teamId]!.payout_requests).toBeGreaterThan(0);
      expect(seen[teamId]!.payout_requests).toBe(seen[ALPHA.teamId]!.payout_requests);
      expect(seen[teamId]!.ledger_entries).toBeGreaterThan(0);
    }
    expect(seen[ALPHA.teamId]!.language_choices).toBe(1);
    // Outside a workspace's scope, row-level security shows no row at all.
    expect((await h.host.db.query('SELECT 1 FROM payout_requests')).rows).toEqual([]);
  });

  it('offers a recipient paid in Alpha only to Alpha’s people', async () => {
    const zawadi = { ...MOBILE_FIELDS, phone: '243820000077', name: 'Zawadi Alpha', amount: '12', reference: 'INV-ALPHA-ONLY' };
    const id = await requestPayout(flowOf(ALPHA.teamId), 'mobile', zawadi, RITA);
    expect(await approveAs(flowOf(ALPHA.teamId), ADMIN, id)).toContain('Sent');
    payoutIds[`${ALPHA.teamId}-zawadi`] = id;
    expect(blockText(await ask(ALPHA.teamId, RITA, 'recipients'))).toContain('Zawadi Alpha');
    const betaList = blockText(await ask(BETA.teamId, RITA, 'recipients'));
    expect(betaList).toContain('Amani Kabila');
    expect(betaList).not.toContain('Zawadi');
    for (const [teamId, offered] of [
      [ALPHA.teamId, 1],
      [BETA.teamId, 0],
    ] as const) {
      const flow = flowOf(teamId);
      const form = await openPayoutForm(flow, RITA, 'payout mobile');
      const suggested = await flow.slack.suggestOptions({ userId: RITA, viewId: form.id, actionId: RECIPIENT_ACTIONS.pick, value: 'zawadi' });
      expect(suggested.options).toHaveLength(offered);
      await flow.slack.closeView({ userId: RITA, viewId: form.id });
    }
    expect(
      account(BETA.teamId)
        .payouts()
        .map((payout) => JSON.stringify(payout.body))
        .join('\n'),
    ).not.toContain(zawadi.phone);
  });

  it('writes nothing of one partner’s money into the other’s workspace', async () => {
    for (const { teamId } of PARTNERS) {
      const other = teamId === ALPHA.teamId ? BETA.teamId : ALPHA.teamId;
      const slack = ws(teamId);
      const directory = slack.directory();
      const channels = [...directory.channels.map((channel) => channel.id), ...directory.users.map((user) => dmOf(user.id))];
      const everything = channels.flatMap((channel) => slack.messages(channel, { includeDeleted: true }).map(textOf)).join('\n');
      expect(everything).toContain(payoutIds[teamId]);
      for (const [key, id] of Object.entries(payoutIds)) if (!key.startsWith(teamId)) expect(everything).not.toContain(id);
      if (teamId === BETA.teamId) expect(everything).not.toContain('Zawadi');
      const theirs = [
        ...account(other)
          .transactions()
          .map((tx) => tx.reference),
        ...account(other)
          .payouts()
          .map((payout) => payout.transactionId),
      ];
      const ours = new Set(
        account(teamId)
          .transactions()
          .map((tx) => tx.reference),
      );
      expect(theirs.filter((reference) => !ours.has(reference) && everything.includes(reference))).toEqual([]);
    }
  });

  it('labels each workspace’s figures with its tenant on the host’s /metrics, with no key in them', async () => {
    expect(h.host.opsUrl).toBeDefined();
    const metrics = await (await fetch(`${h.host.opsUrl}/metrics`)).text();
    for (const { teamId } of PARTNERS) {
      expect(metrics).toMatch(new RegExp(`fleet_bot_commands_total\\{[^}]*subcommand="balance"[^}]*tenant="${teamId}"[^}]*\\} [1-9]`));
    }
    // The process's own figures appear once, without a tenant.
    expect(metrics).toMatch(/^process_resident_memory_bytes \d/m);
    for (const secret of [...PARTNERS.map((partner) => partner.fleetKey), 'xoxb-', 'sk_sandbox']) expect(metrics).not.toContain(secret);
    expect((await fetch(`${h.host.opsUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${h.host.opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, workspaces: { running: 2 } });
  });

  it('names the workspace in each command’s log lines, and never a key', async () => {
    for (const { teamId } of PARTNERS) await ask(teamId, PEOPLE.newcomer, 'balance');
    const lines = h.logs.flatMap((chunk) => chunk.split('\n')).filter(Boolean);
    const refusals = lines.filter((line) => line.includes('refused a /fleet subcommand'));
    for (const { teamId } of PARTNERS) expect(refusals.filter((line) => line.includes(`"tenant":"${teamId}"`))).toHaveLength(1);
    expect(refusals).toHaveLength(2);
    const all = lines.join('\n');
    for (const secret of [...PARTNERS.map((partner) => partner.fleetKey), 'xoxb-']) expect(all).not.toContain(secret);
  });
});

/** The `days` whole UTC days before today: the first, the last, and the day after the last (today). */
function lastDays(days: number): { since: string; until: string; before: string } {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { since: day(-days), until: day(-1), before: day(0) };
}

/** How a balance writes a USD amount: 12,345.67. */
function usd(amount: number): string {
  return amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
