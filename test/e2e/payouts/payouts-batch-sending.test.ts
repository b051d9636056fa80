import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import { batchMessage, batchRow, clickOnBatch, submitBatch } from '../../support/batch-flow.js';
import { dmWith, PAYOUT_ENV } from '../../support/payout-flow.js';

const posted = (h: Harness) =>
  h.sandbox.requests
    .filter((request) => request.method === 'POST' && request.path.startsWith('/api/v1/b2b/payouts/'))
    .map((request) => (request.body as { reference: string }).reference);

describe('sending an approved bulk payout', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      env: { ...PAYOUT_ENV, PAYOUT_BATCH_RATE: '1000' },
      bot: { payoutTimers: { batchEveryMs: 50, maintenanceEveryMs: 100, resultsRetrySeconds: 0.2 } },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  let finished = '';

  it('sends each row once with its own reference, edits one message with the progress, and sends the results file', async () => {
    const before = posted(h).length;
    const id = (finished = await submitBatch(h, [
      batchRow(1),
      batchRow(2, '20.50'),
      batchRow(3, '5', 'EUR'),
      `${batchRow(4).slice(0, -1)}INV-77,`,
      batchRow(5),
    ]));
    await clickOnBatch(h, PEOPLE.approver, id, 'approve');
    const dm = await h.waitForMessage(PEOPLE.requester, `${id}* is finished`, dmWith(PEOPLE.requester));
    const references = posted(h).slice(before);
    expect(references.sort()).toEqual([`${id}-2`, `${id}-3`, `${id}-4`, `${id}-6`, 'INV-77'].sort());
    expect(dm.text).toContain('5 sent, 0 failed, 0 unknown, 0 not sent');
    const csv = h.slack.file(dm.files![0]!.id)!.bytes!.toString('utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(6);
    expect(csv).toMatch(new RegExp(`2,${id}-2,sent,\\S+`));
    const message = blockText(await batchMessage(h, id));
    expect(message).toContain('Done');
    expect(message).toContain('*Sent* 5 · *Failed* 0 · *Unknown* 0 · *Remaining* 0');
    // One message for the batch: no approval message per row.
    expect(h.slack.messages(CHANNELS.approvals).filter((entry) => !entry.threadTs && /PR-[A-Z0-9]{6}/.test(entry.text))).toEqual([]);
  });

  it("keeps the approvers' names on the message of a finished or stopped bulk payout", async () => {
    expect(blockText(await batchMessage(h, finished))).toContain(`Done; approved by <@${PEOPLE.approver}>`);
  });

  it("sends the results file again after Slack refused it, only once, and posts a receipt in the bulk payout's thread", async () => {
    const id = await submitBatch(h, [batchRow(700), batchRow(701, '2')]);
    const message = await batchMessage(h, id);
    h.slack.failNext('files.getUploadURLExternal', { error: 'internal_error' });
    await clickOnBatch(h, PEOPLE.approver, id, 'approve');
    const receipt = await h.slack.waitFor(
      () => h.slack.messages(CHANNELS.approvals).find((reply) => reply.threadTs === message.ts && reply.text.includes('The results of bulk payout')),
      { message: 'the receipt in the thread', timeoutMs: 10_000 },
    );
    expect(receipt.text).toBe(
      `:receipt: The results of bulk payout *${id}* went to <@${PEOPLE.requester}> by direct message: 2 sent, 0 failed, 0 unknown, 0 not sent.`,
    );
    expect(h.logs.some((line) => line.includes('could not send the results of a bulk payout'))).toBe(true);
    // Several maintenance runs later, still one results file and one receipt.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(h.slack.messages(dmWith(PEOPLE.requester)).filter((entry) => entry.text.includes(`${id}* is finished`))).toHaveLength(1);
    expect(
      h.slack.messages(CHANNELS.approvals).filter((reply) => reply.threadTs === message.ts && reply.text.includes('The results of bulk payout')),
    ).toHaveLength(1);
  });

  it('lets an approver stop the rows not yet sent', async () => {
    const id = await submitBatch(
      h,
      Array.from({ length: 400 }, (_, index) => batchRow(100 + index, '1')),
    );
    await clickOnBatch(h, PEOPLE.approver, id, 'approve');
    await h.slack.waitFor(
      () => /Sent\* [1-9]/.test(blockText(h.slack.messages(CHANNELS.approvals).find((entry) => entry.text.includes(id) && !entry.threadTs)!)),
      { timeoutMs: 10_000 },
    );
    await clickOnBatch(h, PEOPLE.requester, id, 'stop');
    await h.waitForMessage(PEOPLE.requester, 'Only approvers may do this', CHANNELS.approvals);
    await clickOnBatch(h, PEOPLE.approver2, id, 'stop');
    const dm = await h.waitForMessage(PEOPLE.requester, `${id}* is finished`, dmWith(PEOPLE.requester));
    const sent = Number(/(\d+) sent/.exec(dm.text)?.[1]);
    const notSent = Number(/(\d+) not sent/.exec(dm.text)?.[1]);
    expect(sent + notSent).toBe(400);
    expect(notSent).toBeGreaterThan(0);
    expect(posted(h).filter((reference) => reference.startsWith(id))).toHaveLength(sent);
    expect(blockText(await batchMessage(h, id))).toContain(`Stopped by <@${PEOPLE.approver2}>; approved by <@${PEOPLE.approver}>`);
  });
});
