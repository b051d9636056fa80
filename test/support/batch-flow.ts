/** Acting out a bulk payout as people in the local workspace: check a file, submit it, approve it. */
import { expect } from 'vitest';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../../src/slack/ids.js';
import type { OpenView, SlackMessage } from '@fleet-treasury-bot/local-slack';
import { CHANNELS, PEOPLE, type Harness } from './bot-harness.js';
import { callbackIs, viewText, waitForView } from './payout-flow.js';

export const BATCH_HEADER = 'kind,number,provider,name,country,amount,currency,reference,note';

/** A mobile money row to a distinct phone number per `index`. */
export const batchRow = (index: number, amount = '10', currency = 'USD') =>
  `mobile,2438123${String(index).padStart(5, '0')},VODACOM_MPESA,Person ${index},CD,${amount},${currency},,`;

/** Checks `rows` as a file chosen in the bulk form; returns the view showing the result. */
export async function checkBatch(h: Harness, rows: string[], userId: string = PEOPLE.requester): Promise<OpenView> {
  await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text: 'payout bulk' });
  const form = await waitForView(h, userId, callbackIs(PAYOUT_BATCH.uploadView), 'the bulk form');
  const fileId = h.slack.uploadFileAs({ userId, name: 'rows.csv', bytes: `${BATCH_HEADER}\n${rows.join('\n')}\n` });
  await h.slack.submitView({ userId, viewId: form.id, values: { [PAYOUT_BATCH.fileBlock]: { [PAYOUT_BATCH.input]: [fileId] } } });
  return waitForView(h, userId, (view) => view.id === form.id && view.view.callback_id !== PAYOUT_BATCH.checkingView, 'the check');
}

/** Checks and submits `rows`; returns the batch id. */
export async function submitBatch(h: Harness, rows: string[]): Promise<string> {
  const ready = await checkBatch(h, rows);
  expect({ view: ready.view.callback_id, text: ready.view.callback_id === PAYOUT_BATCH.readyView ? '' : viewText(ready) }).toEqual({
    view: PAYOUT_BATCH.readyView,
    text: '',
  });
  await h.slack.submitView({ userId: PEOPLE.requester, viewId: ready.id });
  const receipt = viewText(h.slack.view(ready.id)!);
  expect(receipt).toContain('waiting for approval');
  return /PB-[A-Z0-9]{6}/.exec(receipt)![0];
}

export function batchMessage(h: Harness, id: string): Promise<SlackMessage> {
  return h.slack.waitFor(() => h.slack.messages(CHANNELS.approvals).find((message) => message.text.includes(id) && !message.threadTs));
}

export async function clickOnBatch(h: Harness, userId: string, id: string, action: keyof typeof PAYOUT_BATCH_ACTIONS): Promise<void> {
  const message = await batchMessage(h, id);
  await h.slack.clickButton({ userId, actionId: PAYOUT_BATCH_ACTIONS[action], channelId: CHANNELS.approvals, messageTs: message.ts });
}
