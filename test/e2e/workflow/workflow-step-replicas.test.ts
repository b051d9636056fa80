import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/store/index.js';
import { PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { testDatabases } from '../../support/databases.js';
import { ManualClock, MINUTE } from '../../support/payout-doubles.js';
import { approveAs, dmTexts, PAYOUT_ENV, payoutPosts, waitForApprovalMessage } from '../../support/payout-flow.js';
import { answer, completionCalls, messageText, runStep, stepInputs, waitForQuestion, waitForRunEnd } from '../../support/workflow-flow.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the payout step with two replicas, a restart, and tokens that expire', () => {
  let db: Db;
  const clock = new ManualClock(new Date());
  const replicas: Harness[] = [];
  let first: Harness;

  // Replicas on one database, Slack and Fleet API, sweeping every 50 ms; the workspace's time is the bot's.
  const startReplica = async () => {
    const h = await startHarness({
      env: { ...PAYOUT_ENV },
      existingDb: db,
      ...(first ? { existingSlack: first.slack, existingSandbox: first.sandbox } : { slack: { now: () => clock.now().getTime() } }),
      bot: { clock, payoutTimers: { maintenanceEveryMs: 50 } },
    });
    replicas.push(h);
    return h;
  };
  const idOf = (text: string) => /PR-[A-Z0-9]{6}/.exec(text)?.[0] ?? '';

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    first = await startReplica();
  });
  afterAll(async () => {
    for (const h of replicas.reverse()) await h.close();
    await db?.close();
  });

  it('completes the step once, after a restart of the replica that asked, from the replica that saw the approval', async () => {
    const second = await startReplica();
    const before = completionCalls(first);
    const executionId = await runStep(second, stepInputs());
    const id = idOf(messageText(await answer(second, executionId, 'confirm')));
    await waitForApprovalMessage(first, id, 'Amani Kabila');

    // The replica that asked stops while approvers decide; the other one carries on.
    await second.close();
    replicas.splice(replicas.indexOf(second), 1);
    first.slack.setAppUrl(first.bot.eventsUrl!);
    await approveAs(first, PEOPLE.approver, id);
    const run = await waitForRunEnd(first, executionId);
    expect(run.outputs).toMatchObject({ status: 'sent', payout_request_id: id });

    // A replica started now, sweeping with the first, completes nothing again.
    const third = await startReplica();
    await pause(400);
    expect(completionCalls(first) - before).toBe(1);
    expect(third.slack.apiCalls.filter((call) => call.method.startsWith('functions.') && call.error)).toEqual([]);
    expect((await first.bot.db.query('SELECT sealed_token FROM workflow_payout_steps WHERE execution_id = $1', [executionId])).rows).toEqual([
      { sealed_token: null },
    ]);
    await third.close();
    replicas.splice(replicas.indexOf(third), 1);
    first.slack.setAppUrl(first.bot.eventsUrl!);
  });

  it("completes with unknown and the request id 3 minutes before the event's token expires, however late the confirmation, then keeps following the payout", async () => {
    const before = completionCalls(first);
    const executionId = await runStep(first, stepInputs());
    await waitForQuestion(first, executionId);
    // The click carries the step's own token, valid 15 minutes from function_executed: it renews nothing.
    clock.advance(10 * MINUTE);
    const confirmed = messageText(await answer(first, executionId, 'confirm'));
    const id = idOf(confirmed);
    expect(confirmed).toContain('If approvers decide within 2 minutes, the workflow goes on with the outcome');
    clock.advance(1.5 * MINUTE);
    await pause(300);
    expect(first.slack.workflowRun(executionId)?.state).toBe('running');
    clock.advance(MINUTE);
    const run = await waitForRunEnd(first, executionId);
    expect(run).toMatchObject({ state: 'completed', outputs: { status: 'unknown', payout_request_id: id } });

    // The approval still goes through, and is announced as before; the step is not completed again.
    const posts = payoutPosts(first);
    await approveAs(first, PEOPLE.approver, id);
    await first.slack.waitFor(() => dmTexts(first, PEOPLE.requester).find((text) => text.includes(id) && text.includes('Transaction')));
    expect(payoutPosts(first) - posts).toBe(1);
    await pause(200);
    expect(completionCalls(first) - before).toBe(1);
  });

  it('fails the step when the requester does not confirm before the token runs out', async () => {
    const executionId = await runStep(first, stepInputs());
    await waitForQuestion(first, executionId);
    clock.advance(12.5 * MINUTE);
    const run = await waitForRunEnd(first, executionId);
    expect(run).toMatchObject({ state: 'failed', error: 'The requester did not confirm the payout in time; nothing was requested.' });
  });
});
