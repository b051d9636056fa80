import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/index.js';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { batchMessage, batchRow, submitBatch } from '../support/batch-flow.js';
import { testDatabases } from '../support/databases.js';
import { HOUR, ManualClock, MINUTE } from '../support/payout-doubles.js';
import { approvalMessage, approveAs, dmTexts, MOBILE_FIELDS, PAYOUT_ENV, requestPayout, waitForApprovalMessage } from '../support/payout-flow.js';

const GROUP = 'S0APPROVERS';

/** The line of an approval message that calls approvers, or undefined when it calls nobody. */
const callLine = (text: string) => text.split('\n').find((line) => line.includes(':bell:'));

describe('approvers are told of a new request in the approval channel', () => {
  const started: Harness[] = [];
  const start = async (env: Record<string, string>) => {
    const h = await startHarness({ env: { ...PAYOUT_ENV, ...env }, slack: { usergroups: { [GROUP]: [PEOPLE.approver, PEOPLE.approver2] } } });
    started.push(h);
    return h;
  };
  afterAll(async () => {
    for (const h of started) await h.close();
  });
  afterEach(() => {
    for (const h of started) expect(h.slack.limitViolations).toEqual([]);
  });

  it('mentions the user group named in FLEET_APPROVERS in the message of a single request and of a bulk payout', async () => {
    const h = await start({ FLEET_APPROVERS: GROUP });
    const id = await requestPayout(h, 'mobile', MOBILE_FIELDS);
    const message = approvalMessage(h, id)!;
    expect(callLine(blockText(message))).toContain(`<!subteam^${GROUP}>`);
    expect(message.text).toContain(`<!subteam^${GROUP}>`);

    const batchId = await submitBatch(h, [batchRow(1), batchRow(2)]);
    const batch = await batchMessage(h, batchId);
    expect(callLine(blockText(batch))).toContain(`<!subteam^${GROUP}>`);
  });

  it('mentions the approvers listed by user ID, never the requester among them, and drops the call once decided', async () => {
    const h = await start({ FLEET_REQUESTERS: `${PEOPLE.requester},${PEOPLE.approver}`, FLEET_APPROVERS: `${PEOPLE.approver},${PEOPLE.approver2}` });
    const id = await requestPayout(h, 'mobile', MOBILE_FIELDS, PEOPLE.approver);
    const call = callLine(blockText(approvalMessage(h, id)!));
    expect(call).toContain(`<@${PEOPLE.approver2}>`);
    expect(call).not.toContain(`<@${PEOPLE.approver}>`);

    await approveAs(h, PEOPLE.approver2, id);
    const sent = await waitForApprovalMessage(h, id, '*Sent.*');
    expect(callLine(blockText(sent))).toBeUndefined();
  });

  it('mentions nobody with PAYOUT_MENTION_APPROVERS=false', async () => {
    const h = await start({ FLEET_APPROVERS: GROUP, PAYOUT_MENTION_APPROVERS: 'false' });
    const id = await requestPayout(h, 'mobile', MOBILE_FIELDS);
    const message = approvalMessage(h, id)!;
    expect(callLine(blockText(message))).toBeUndefined();
    expect(JSON.stringify(message)).not.toContain('subteam');
  });
});

describe('approvers who have not decided are reminded once before a request expires', () => {
  let db: Db;
  let first: Harness;
  let second: Harness;
  const clock = new ManualClock(new Date());
  // A two-hour life: the reminder is due one hour (the default) before the end.
  const env = { ...PAYOUT_ENV, PAYOUT_REQUEST_TTL_HOURS: '2' };
  const reminders = (h: Harness, userId: string, id: string) => dmTexts(h, userId).filter((text) => text.includes(id) && /Reminder|Rappel/.test(text));

  beforeAll(async () => {
    db = await testDatabases()[0]!.open();
    // Two replicas on one database, both sweeping every 50 ms.
    first = await startHarness({ env, existingDb: db, bot: { clock, payoutTimers: { maintenanceEveryMs: 50 } } });
    second = await startHarness({
      env,
      existingDb: db,
      existingSlack: first.slack,
      existingSandbox: first.sandbox,
      bot: { clock, payoutTimers: { maintenanceEveryMs: 50 } },
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await db?.close();
  });
  afterEach(() => {
    expect(first.slack.limitViolations).toEqual([]);
  });

  it('sends each approver who has not approved one reminder in their language, with the amount and a link, at the right time, with two replicas', async () => {
    const h = second;
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: 'language fr' });
    await h.waitForMessage(PEOPLE.approver2, 'Désormais');
    // 1,500 USD needs two approvers: Abel approves, Ada has not decided.
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '1500' });
    await approveAs(h, PEOPLE.approver, id);
    await waitForApprovalMessage(h, id, '1 of 2');

    clock.advance(55 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reminders(h, PEOPLE.approver2, id)).toEqual([]);

    clock.advance(10 * MINUTE);
    const [reminder] = await h.slack.waitFor(
      () => {
        const found = reminders(h, PEOPLE.approver2, id);
        return found.length > 0 ? found : undefined;
      },
      { message: 'the reminder to the approver who has not decided' },
    );
    expect(reminder).toMatch(/1\s500,00\sUSD/);
    expect(reminder).toMatch(new RegExp(`https://[a-z-]+\\.slack\\.com/archives/${CHANNELS.approvals}/p\\d+`));
    expect(reminder).toContain('Rappel');

    // Both replicas keep sweeping; a restart would find the claim too.
    await new Promise((resolve) => setTimeout(resolve, 800));
    clock.advance(10 * MINUTE);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reminders(h, PEOPLE.approver2, id)).toHaveLength(1);
    expect(reminders(h, PEOPLE.approver, id)).toEqual([]);
    expect(reminders(h, PEOPLE.requester, id)).toEqual([]);
  });

  it('reminds the approvers of a bulk payout once too', async () => {
    const h = second;
    const id = await submitBatch(h, [batchRow(31), batchRow(32)]);
    await batchMessage(h, id);
    clock.advance(HOUR + MINUTE);
    for (const approver of [PEOPLE.approver, PEOPLE.approver2]) {
      await h.slack.waitFor(() => reminders(h, approver, id).length > 0 || undefined, { message: `the bulk payout reminder to ${approver}` });
    }
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(reminders(h, PEOPLE.approver, id)).toHaveLength(1);
    expect(reminders(h, PEOPLE.approver2, id)).toHaveLength(1);
    expect(reminders(h, PEOPLE.approver, id)[0]).toContain('20.00 USD');
  });
});
