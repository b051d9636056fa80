import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import type { Db } from '../../../src/store/index.js';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { testDatabases } from '../../support/databases.js';
import { blockText, BOT_TOKEN, PEOPLE, SIGNING_SECRET, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approvalMessage,
  buttonsOf,
  dmTexts,
  MOBILE_FIELDS,
  MOBILE_PATH,
  openApproveModal,
  PAYOUT_ENV,
  payoutPosts,
  requestPayout,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';

describe('a payout in flight when the app restarts', () => {
  let db: Db;
  let sandbox: Sandbox;
  let slack: LocalSlack;
  const harnesses: Harness[] = [];

  // The database, the Fleet API and Slack outlive the app, as they do in production.
  const startApp = async (headersMs: number) => {
    const h = await startHarness({
      env: { ...PAYOUT_ENV },
      existingDb: db,
      existingSandbox: sandbox,
      existingSlack: slack,
      bot: { fleetTimeouts: { headersMs, bodyMs: headersMs } },
    });
    harnesses.push(h);
    return h;
  };

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    sandbox = await startSandbox({ seed: 11 });
    slack = await startLocalSlack({ signingSecret: SIGNING_SECRET, botToken: BOT_TOKEN });
  });
  afterAll(async () => {
    for (const h of harnesses.reverse()) await h.close();
    await slack?.close();
    await sandbox?.close();
    await db?.close();
  });

  it('is settled by the next start from the transaction list, sent once, and its message ends with the transaction id', async () => {
    const first = await startApp(2000);
    const id = await requestPayout(first, 'mobile', MOBILE_FIELDS);
    // The Fleet API takes the payout but its answer never arrives: the first app is stuck mid-payout.
    sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, afterProcessing: true, hang: true, times: 1 });
    const modal = await openApproveModal(first, PEOPLE.approver, id);
    await slack.submitView({ userId: PEOPLE.approver, viewId: modal.id });
    await slack.waitFor(() => sandbox.payouts().length === 1);
    await waitForApprovalMessage(first, id, 'sending to the Fleet API');
    expect((await first.bot.payouts.get(id))?.state).toBe('executing');

    const second = await startApp(10_000);
    const { transactionId } = sandbox.payouts()[0]!;
    const settled = await waitForApprovalMessage(second, id, transactionId);
    expect(blockText(settled)).toContain(`*Sent.* Transaction \`${transactionId}\``);
    expect(buttonsOf(settled)).toEqual([]);
    expect((await second.bot.payouts.history(id)).map((event) => event.event)).toEqual(['requested', 'approved', 'executing', 'unknown', 'reconciled']);

    // The first app's late timeout must neither send again nor change the outcome.
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);
    expect(payoutPosts(second)).toBe(1);
    expect(await second.bot.payouts.get(id)).toMatchObject({ state: 'completed', transactionId });
    expect(slack.messages(approvalMessage(second, id)!.channel).filter((message) => message.text.includes(id))).toHaveLength(1);
    await second.slack.waitFor(() => dmTexts(second, PEOPLE.requester).find((text) => text.includes(id) && text.includes(transactionId)));
    expect(slack.limitViolations).toEqual([]);
  });
});
