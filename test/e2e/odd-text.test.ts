import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../support/bot-harness.js';
import { fieldErrors, MOBILE_FIELDS, openPayoutForm, PAYOUT_ENV, PAYOUT_VIEWS, submitForm, viewText } from '../support/payout-flow.js';

describe('odd and oversized text, through the real receiver', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ env: PAYOUT_ENV });
  });
  afterAll(async () => h?.close());
  afterEach(async () => {
    expect(h.slack.limitViolations).toEqual([]);
    for (const view of h.slack.views(PEOPLE.requester).reverse()) await h.slack.closeView({ userId: PEOPLE.requester, viewId: view.id });
  });

  it('answers /fleet transactions within Slack limits when the API sends a 3,100-character reference', async () => {
    const long = `REF-${'<&'.repeat(1548)}`;
    expect(long.length).toBe(3100);
    h.sandbox.addTransaction({ reference: long, description: 'Bidi \u202Eevil\u202C text' });
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'transactions 1 5' });
    const reply = await h.waitForMessage(PEOPLE.requester, 'Showing 1–5');
    const text = blockText(reply);
    expect(text).toContain('`REF-&lt;&amp;');
    expect(text).not.toContain(long);
    expect(text).not.toMatch(/[\u202A-\u202E]/);
  });

  it('answers an unknown subcommand of 900 "<" with help that fits Slack limits', async () => {
    await h.slack.runCommand({ userId: PEOPLE.newcomer, channelId: CHANNELS.treasury, text: '<'.repeat(900) });
    const reply = await h.waitForMessage(PEOPLE.newcomer, "I don't know");
    expect(reply.text).toContain('`&lt;&lt;&lt;');
    // A newcomer is listed only what they may use: help and language.
    expect(reply.text).toContain('/fleet help');
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('answers /fleet %s with the usual help for an unknown subcommand', async (word) => {
    await h.slack.runCommand({ userId: PEOPLE.approver2, channelId: CHANNELS.treasury, text: word });
    const reply = await h.waitForMessage(PEOPLE.approver2, `I don't know \`${word.toLowerCase()}\``);
    expect(reply.text).toContain('/fleet balance');
    expect(reply.text).not.toContain('something went wrong');
  });

  it.each<['name' | 'note' | 'reference', string]>([
    ['name', 'Amani \u202EalibaK'],
    ['name', 'Amani\u200BKabila'],
    ['note', 'Pay \u2066INV-1\u2069 today'],
    ['note', '\u0001'.repeat(500)],
    ['reference', 'INV\u200D-42'],
  ])('refuses a %s with hidden or control characters under its field, storing nothing (%#)', async (field, value) => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const answered = await submitForm(h, PEOPLE.requester, form.id, { ...MOBILE_FIELDS, [field]: value });
    expect(answered.view.callback_id).toBe(PAYOUT_VIEWS.form);
    expect(fieldErrors(answered)[field]).toMatch(/invisible|control|cannot be sent/i);
    expect(viewText(answered)).not.toContain('Check the payout');
  });

  it("keeps the review modal's private_metadata within 3,000 characters with every field at its longest", async () => {
    const form = await openPayoutForm(h, PEOPLE.requester, 'payout mobile');
    const review = await submitForm(h, PEOPLE.requester, form.id, {
      ...MOBILE_FIELDS,
      name: '"\\'.repeat(50),
      note: '"\\\n'.repeat(166),
      reference: 'R'.repeat(40),
    });
    expect(review.view.callback_id).toBe(PAYOUT_VIEWS.review);
    const metadata = review.view.private_metadata;
    expect(typeof metadata).toBe('string');
    expect((metadata as string).length).toBeLessThanOrEqual(3000);
  });
});
