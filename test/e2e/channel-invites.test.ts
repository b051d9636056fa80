/**
 * An admin forgot `/invite @Fleet Treasury` in the approval, feed and digest channels: Slack refuses
 * the bot's posts there (`not_in_channel`). The requester is told which channel needs the invite,
 * `/fleet feed` and /readyz name every such channel, and once invited nothing is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/index.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { testDatabases } from '../support/databases.js';
import { storePayout } from '../support/digest-doubles.js';
import { PAYOUT_BATCH_ACTIONS } from '../../src/slack/ids.js';
import { batchRow, submitBatch } from '../support/batch-flow.js';
import { approvalMessage, dmWith, MOBILE_FIELDS, openPayoutForm, PAYOUT_ENV, PAYOUT_VIEWS, submitForm, viewText } from '../support/payout-flow.js';

const DIGEST = 'C0DIGEST';
const BOT = 'U0FLEETBOT';
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface Readyz {
  ready: boolean;
  channels: { ok: boolean; missing_invites: Array<{ channel: string; for: string[] }> };
}

describe('a bot nobody invited to its channels', () => {
  let db: Db;
  let h: Harness;
  const readyz = async (): Promise<Readyz> => (await (await fetch(`${h.bot.opsUrl!}/readyz`)).json()) as Readyz;
  const missing = async () => Object.fromEntries((await readyz()).channels.missing_invites.map((invite) => [invite.channel, invite.for]));
  const feedText = () => h.slack.messages(CHANNELS.feed).map(blockText).join('\n');
  let payoutId = '';
  let batchId = '';
  let fedBefore: string[] = [];

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    // The app has been running since before yesterday, and one payout was sent yesterday: a digest is due.
    await db.query('INSERT INTO digest_state (id, first_day) VALUES (1, $1)', [yesterday]);
    await storePayout(db, { state: 'completed', amountMinor: 2_500, currency: 'USD', requestedAt: `${yesterday}T09:00:00Z` }, [
      ['completed', `${yesterday}T10:00:00Z`],
    ]);
    h = await startHarness({
      existingDb: db,
      env: {
        ...PAYOUT_ENV,
        FEED_CHANNEL_ID: CHANNELS.feed,
        FEED_POLL_INTERVAL_SECONDS: '5',
        DIGEST_CHANNEL_ID: DIGEST,
        DIGEST_TIME: '00:00',
        DIGEST_TIMEZONE: 'UTC',
        METRICS_PORT: '0',
      },
      slack: {
        channels: [
          { id: CHANNELS.treasury, name: 'treasury' },
          { id: CHANNELS.approvals, name: 'treasury-approvals' },
          { id: CHANNELS.feed, name: 'treasury-feed' },
          { id: DIGEST, name: 'treasury-digest' },
        ],
      },
      uninvited: [CHANNELS.approvals, CHANNELS.feed, DIGEST],
      bot: { payoutTimers: { maintenanceEveryMs: 200 } },
    });
    for (let tries = 0; !(await h.bot.feed!.status()).started; tries += 1) {
      if (tries > 150) throw new Error('the feed never made its first poll');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  it('tells the requester that approvers cannot see the request and which channel to invite the bot to', async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, MOBILE_FIELDS);
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    await h.slack.submitView({ userId: PEOPLE.requester, viewId: review.id });
    payoutId = /PR-[A-Z0-9]{6}/.exec(viewText(h.slack.view(review.id)!))?.[0] ?? '';
    expect(payoutId).not.toBe('');

    const receipt = await h.waitForMessage(PEOPLE.requester, payoutId, dmWith(PEOPLE.requester));
    const text = blockText(receipt);
    expect(text).toContain(`Approvers cannot see this request yet: I am not in <#${CHANNELS.approvals}>`);
    expect(text).toContain(`Invite <@${BOT}> to <#${CHANNELS.approvals}>`);
    expect(approvalMessage(h, payoutId)).toBeUndefined();
  });

  it('keeps a bulk payout requested meanwhile for its approval message, with its rows in the thread', async () => {
    batchId = await submitBatch(h, [batchRow(41), batchRow(42)]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(h.slack.messages(CHANNELS.approvals).filter((message) => message.text.includes(batchId))).toEqual([]);
  });

  it('names every channel that waits for an invite in /fleet feed and in /readyz, and stays ready', async () => {
    fedBefore = h.sandbox.addTransactions(3).map((tx) => tx.reference);
    for (let tries = 0; ; tries += 1) {
      const now = await missing();
      if (now[CHANNELS.feed] && now[DIGEST] && now[CHANNELS.approvals]) break;
      if (tries > 200) throw new Error(`the refusals never all showed in /readyz: ${JSON.stringify(now)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const report = await readyz();
    expect(report.ready).toBe(true);
    expect(report.channels.ok).toBe(false);
    expect(await missing()).toEqual({ [CHANNELS.approvals]: ['approvals'], [CHANNELS.feed]: ['feed'], [DIGEST]: ['digest'] });
    expect(h.slack.messages(CHANNELS.feed)).toEqual([]);

    await h.slack.runCommand({ userId: PEOPLE.approver, channelId: CHANNELS.treasury, text: 'feed' });
    const status = blockText(await h.waitForMessage(PEOPLE.approver, 'Transaction feed'));
    expect(status).toContain(`The feed cannot post in <#${CHANNELS.feed}>: invite <@${BOT}> to <#${CHANNELS.feed}>`);
    expect(status).toContain(`Approval messages cannot be posted in <#${CHANNELS.approvals}>`);
    expect(status).toContain(`The daily digest cannot be posted in <#${DIGEST}>`);
  });

  it('catches up once invited: the waiting approval message, the missed feed entries and the digest, each once', async () => {
    for (const channel of [CHANNELS.approvals, CHANNELS.feed, DIGEST]) h.slack.invite(channel);
    await h.slack.waitFor(() => approvalMessage(h, payoutId), { timeoutMs: 10_000, message: 'the approval message, once invited' });
    const batch = await h.slack.waitFor(() => h.slack.messages(CHANNELS.approvals).find((message) => message.text.includes(batchId) && !message.threadTs), {
      timeoutMs: 10_000,
      message: "the bulk payout's approval message, once invited",
    });
    expect(JSON.stringify(batch.blocks)).toContain(`"action_id":"${PAYOUT_BATCH_ACTIONS.approve}"`);
    await h.slack.waitFor(() => h.slack.messages(CHANNELS.approvals).find((message) => message.threadTs === batch.ts), {
      message: "the bulk payout's rows in its thread",
    });
    await h.slack.waitFor(() => fedBefore.every((reference) => feedText().includes(reference)) || undefined, {
      timeoutMs: 20_000,
      message: 'the missed feed entries',
    });
    // The digest scheduler checks every 30 seconds.
    const digest = await h.slack.waitFor(() => h.slack.messages(DIGEST).find((message) => message.text.includes('Daily digest')), {
      timeoutMs: 45_000,
      message: 'the digest',
    });
    expect(blockText(digest)).toContain('Sent: 1 payout (25.00 USD)');

    expect(h.slack.messages(CHANNELS.approvals).filter((message) => message.text.includes(payoutId))).toHaveLength(1);
    expect(h.slack.messages(CHANNELS.approvals).filter((message) => message.text.includes(batchId) && !message.threadTs)).toHaveLength(1);
    for (const reference of fedBefore) expect(feedText().split(reference).length - 1).toBe(1);
    expect(await missing()).toEqual({});
    expect((await readyz()).channels.ok).toBe(true);
  }, 60_000);
});
