/**
 * Acting out the payout flow as people in the local workspace: open the form, fill it in, review,
 * submit, and approve or reject from the approval message. Each helper waits for what the person
 * would see next and returns it.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_FIELD_BLOCKS, PAYOUT_VIEWS, RECIPIENT_ACTIONS } from '../../src/slack/ids.js';
import { fieldBlockId } from '../../src/slack/views/payout-form.js';
import type { PayoutFieldName } from '../../src/payouts/index.js';
import type { OpenView, SlackMessage, SubmittedValues } from '@fleet-treasury-bot/local-slack';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from './bot-harness.js';
import type { ManualClock } from './payout-doubles.js';

export const PAYOUT_ENV = {
  APPROVAL_CHANNEL_ID: CHANNELS.approvals,
  FLEET_REQUESTERS: PEOPLE.requester,
  FLEET_APPROVERS: `${PEOPLE.approver},${PEOPLE.approver2}`,
  PAYOUT_DUAL_APPROVAL_ABOVE: 'USD:1000,EUR:1000,CDF:2500000',
  PAYOUT_MAX_AMOUNT: 'USD:5000,EUR:5000,CDF:10000000',
  // Off for the flows of the other rules, which pay recipients never paid before; the new-recipient tests set it.
  PAYOUT_NEW_RECIPIENT_APPROVALS: '1',
} as const;

export const MOBILE_PATH = '/api/v1/b2b/payouts/mobile-money';
export const BANK_PATH = '/api/v1/b2b/payouts/bank-account';

/** The bot's direct message channel with a person, as the workspace names it. */
export const dmWith = (userId: string) => `D${userId.slice(1)}`;

export function formValues(fields: Partial<Record<PayoutFieldName, string>>): SubmittedValues {
  const values: SubmittedValues = {};
  for (const [field, value] of Object.entries(fields) as Array<[PayoutFieldName, string]>) {
    values[PAYOUT_FIELD_BLOCKS[field]] = { [PAYOUT_ACTIONS.input]: value };
  }
  return values;
}

export const MOBILE_FIELDS = {
  phone: '243812345678',
  name: 'Amani Kabila',
  countryCode: 'CD',
  operator: 'VODACOM_MPESA',
  amount: '150',
  currency: 'USD',
} as const;

export const BANK_FIELDS = {
  accountNumber: '0001 2345 6789',
  bankCode: 'BCDCCDKI',
  name: 'Ndaya Logistics SARL',
  countryCode: 'CD',
  amount: '750.50',
  currency: 'EUR',
} as const;

export function topView(h: Harness, userId: string): OpenView | undefined {
  return h.slack.views(userId).at(-1);
}

/** Waits for the person's top modal to satisfy `test` (e.g. a callback id or some text). */
export function waitForView(h: Harness, userId: string, test: (view: OpenView) => boolean, what: string): Promise<OpenView> {
  return h.slack.waitFor(
    () => {
      const view = topView(h, userId);
      return view && test(view) ? view : undefined;
    },
    { message: `${userId}'s modal: ${what}` },
  );
}

export const viewText = (view: OpenView) => JSON.stringify(view.view.blocks);
export const callbackIs = (callbackId: string) => (view: OpenView) => view.view.callback_id === callbackId;

/** `/fleet payout …` until the form is open. */
export async function openPayoutForm(h: Harness, userId: string, text: string): Promise<OpenView> {
  await h.slack.runCommand({ userId, channelId: CHANNELS.treasury, text });
  return waitForView(h, userId, callbackIs(PAYOUT_VIEWS.form), 'the payout form');
}

/** Submits the form and returns the view after the app answered (review screen, or the form with errors). */
export async function submitForm(h: Harness, userId: string, viewId: string, fields: Partial<Record<PayoutFieldName, string>>): Promise<OpenView> {
  const ack = await h.slack.submitView({ userId, viewId, values: formValues(fields) });
  expect(ack.status).toBe(200);
  return h.slack.view(viewId)!;
}

/**
 * In a form just opened: picks the saved recipient `identity` (found by typing `search`), then submits
 * the filled form with `edits` over what the pick filled in; returns the view after the app answered.
 */
export async function submitEditedFromSaved(
  h: Harness,
  userId: string,
  formId: string,
  saved: { search: string; identity: string },
  edits: Partial<Record<PayoutFieldName, string>>,
): Promise<OpenView> {
  await h.slack.suggestOptions({ userId, viewId: formId, actionId: RECIPIENT_ACTIONS.pick, value: saved.search });
  await h.slack.selectOption({ userId, viewId: formId, actionId: RECIPIENT_ACTIONS.pick, value: saved.identity });
  const filled = await waitForView(
    h,
    userId,
    (view) => callbackIs(PAYOUT_VIEWS.form)(view) && String(view.view.private_metadata).includes('"fill":1'),
    'the form filled in',
  );
  const values = Object.fromEntries(
    Object.entries(edits).map(([field, value]) => [fieldBlockId(field as PayoutFieldName, 1), { [PAYOUT_ACTIONS.input]: value }]),
  );
  expect((await h.slack.submitView({ userId, viewId: filled.id, values })).status).toBe(200);
  return h.slack.view(filled.id)!;
}

/** The field errors of the form, keyed by field name. */
export function fieldErrors(view: OpenView): Partial<Record<PayoutFieldName, string>> {
  const byBlock = view.errors ?? {};
  const errors: Partial<Record<PayoutFieldName, string>> = {};
  for (const [field, blockId] of Object.entries(PAYOUT_FIELD_BLOCKS) as Array<[PayoutFieldName, string]>) {
    if (byBlock[blockId] !== undefined) errors[field] = byBlock[blockId];
  }
  return errors;
}

/** From the command to a stored request: returns its id. */
export async function requestPayout(
  h: Harness,
  kind: 'mobile' | 'bank',
  fields: Partial<Record<PayoutFieldName, string>>,
  userId: string = PEOPLE.requester,
): Promise<string> {
  const form = await openPayoutForm(h, userId, `payout ${kind}`);
  const review = await submitForm(h, userId, form.id, fields);
  expect(review.view.callback_id, JSON.stringify(review.errors)).toBe(PAYOUT_VIEWS.review);
  await h.slack.submitView({ userId, viewId: review.id });
  const done = h.slack.view(review.id)!;
  const id = /PR-[A-Z0-9]{6}/.exec(viewText(done))?.[0];
  expect(id, viewText(done)).toBeDefined();
  await h.slack.closeView({ userId, viewId: review.id });
  await h.slack.waitFor(() => approvalMessage(h, id!), { message: `the approval message of ${id}` });
  return id!;
}

export function approvalMessage(h: Harness, id: string): SlackMessage | undefined {
  return h.slack.messages(CHANNELS.approvals).find((message) => message.text.includes(id));
}

/** Waits until the approval message of `id` reads `fragment` (in its text or blocks). */
export function waitForApprovalMessage(h: Harness, id: string, fragment: string, timeoutMs?: number): Promise<SlackMessage> {
  return h.slack.waitFor(
    () => {
      const message = approvalMessage(h, id);
      return message && (message.text.includes(fragment) || blockText(message).includes(fragment)) ? message : undefined;
    },
    { message: `the approval message of ${id} to say "${fragment}"`, ...(timeoutMs ? { timeoutMs } : {}) },
  );
}

export function buttonsOf(message: SlackMessage): string[] {
  const text = JSON.stringify(message.blocks);
  return Object.values(PAYOUT_ACTIONS).filter((actionId) => text.includes(`"action_id":"${actionId}"`));
}

/** Clicks a button on the approval message of `id`. */
export async function clickOnApproval(h: Harness, userId: string, id: string, actionId: string): Promise<void> {
  const message = await h.slack.waitFor(() => approvalMessage(h, id), { message: `the approval message of ${id}` });
  const ack = await h.slack.clickButton({ userId, channelId: CHANNELS.approvals, messageTs: message.ts, actionId });
  expect(ack.status).toBe(200);
}

/**
 * Approve → the modal with every detail → submit; returns the modal's final words. `tick`: the
 * approver ticks "I checked this is not a duplicate" first (the modal must offer it).
 */
export async function approveAs(h: Harness, userId: string, id: string, options: { tick?: boolean } = {}): Promise<string> {
  const modal = await openApproveModal(h, userId, id);
  if (options.tick) await tickNotDuplicate(h, userId, modal.id);
  return submitApproval(h, userId, modal.id);
}

/** Ticks "I checked this is not a duplicate" in an approve modal that offers it. */
export async function tickNotDuplicate(h: Harness, userId: string, viewId: string): Promise<void> {
  expect(viewText(h.slack.view(viewId)!)).toContain(PAYOUT_BLOCKS.duplicateCheck);
  await h.slack.selectOption({ userId, viewId, blockId: PAYOUT_BLOCKS.duplicateCheck, actionId: PAYOUT_ACTIONS.input, value: 'checked' });
}

export async function openApproveModal(h: Harness, userId: string, id: string): Promise<OpenView> {
  await clickOnApproval(h, userId, id, PAYOUT_ACTIONS.approve);
  return waitForView(h, userId, (view) => view.view.callback_id === PAYOUT_VIEWS.approve && view.view.private_metadata === id, 'the approve modal');
}

export async function submitApproval(h: Harness, userId: string, viewId: string): Promise<string> {
  const ack = await h.slack.submitView({ userId, viewId });
  expect(ack.status).toBe(200);
  const done = await h.slack.waitFor(
    () => {
      const view = h.slack.view(viewId);
      return view && !viewText(view).includes('Recording your approval') ? view : undefined;
    },
    { message: 'the outcome of the approval', timeoutMs: 10_000 },
  );
  return viewText(done);
}

/** The ephemeral messages a person was shown in the approval channel, newest last. */
export function privateNotes(h: Harness, userId: string): string[] {
  return h.slack
    .messages(CHANNELS.approvals, { visibleTo: userId })
    .filter((message) => message.ephemeralTo === userId)
    .map((message) => message.text);
}

export function dmTexts(h: Harness, userId: string): string[] {
  return h.slack.messages(dmWith(userId)).map((message) => `${message.text}\n${blockText(message)}`);
}

export function payoutPosts(h: Harness): number {
  return h.sandbox.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/api/v1/b2b/payouts/')).length;
}

export { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_VIEWS };

/**
 * For a describe whose payouts end in an unknown outcome: a bot on `clock` with short Fleet API
 * timeouts, a 10-minute reconcile window and fast maintenance. Checks Block Kit limits after each test.
 */
export function useUnknownOutcomeHarness(clock: ManualClock): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness({
      env: { ...PAYOUT_ENV, PAYOUT_RECONCILE_WINDOW_MINUTES: '10' },
      bot: { clock, fleetTimeouts: { headersMs: 500, bodyMs: 500 }, payoutTimers: { maintenanceEveryMs: 50, recheckEveryMs: 1000 } },
    });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    h?.sandbox.setFault(null);
    expect(h?.slack.limitViolations).toEqual([]);
  });
  return () => {
    if (!h) throw new Error('the harness did not start');
    return h;
  };
}
