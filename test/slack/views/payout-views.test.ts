import { describe, expect, it } from 'vitest';
import { INTERRUPTED_FAILURE, PAYOUT_EVENT_NAMES, PAYOUT_STATES, type PayoutEvent, type PayoutRequest, type PayoutState } from '../../../src/payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_FIELD_BLOCKS, PAYOUT_VIEWS, RECIPIENT_BLOCKS } from '../../../src/slack/ids.js';
import { noticeModal } from '../../../src/slack/views/notice.js';
import { approvalOutcome, buildApprovalMessage, buildApproveModal, buildRejectModal } from '../../../src/slack/views/payout-approval.js';
import { buildPayoutChooser, buildPayoutForm, buildPayoutReview, buildPayoutSubmitted } from '../../../src/slack/views/payout-form.js';
import { buildPayoutHistory, buildPayoutList } from '../../../src/slack/views/payout-history.js';
import { buildRequesterUpdate } from '../../../src/slack/views/payout-updates.js';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { LOCALES } from '../../../src/i18n/index.js';
import { pendingRequest } from '../../support/payout-doubles.js';

const surface = { sandbox: false, locale: 'en' as const };
const choices = { operators: ['VODACOM_MPESA', 'ORANGE_MONEY'], currencies: ['USD', 'EUR', 'CDF'] };
const at = new Date('2026-11-21T10:00:00.000Z');

function request(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  return pendingRequest({
    amountMinor: 150_050,
    reference: 'INV-2025-0042',
    note: 'March stipend',
    requestedBy: 'U0REQUESTER',
    requestedAt: at,
    expiresAt: new Date(at.getTime() + 24 * 3_600_000),
    requiredApprovals: 2,
    approvalMessage: { channel: 'C0APPROVALS', ts: '1.000001' },
    updatedAt: at,
    ...overrides,
  });
}

const json = (value: unknown) => JSON.stringify(value);
const buttons = (blocks: unknown) => Object.values(PAYOUT_ACTIONS).filter((id) => json(blocks).includes(`"action_id":"${id}"`));

describe('payout request modals', () => {
  it('lays out the mobile money form in order, prefilled, with the saved-recipient select then one block per field', () => {
    const view = buildPayoutForm(surface, 'mobile_money', choices, { phone: '243812345678', amount: '150', currency: 'usd' });
    const blockIds = view.blocks.map((block) => block.block_id).filter(Boolean);
    expect(blockIds[0]).toBe(RECIPIENT_BLOCKS.pick);
    expect(blockIds.slice(1, 9)).toEqual(['phone', 'name', 'countryCode', 'operator', 'amount', 'currency', 'reference', 'note'].map((f) => PAYOUT_FIELD_BLOCKS[f as keyof typeof PAYOUT_FIELD_BLOCKS]));
    // Then the optional When fields of a scheduled payout.
    expect(blockIds.slice(9)).toEqual(['payout_send_on', 'payout_send_at', 'payout_repeat', 'payout_repeat_count', 'payout_repeat_until']);
    expect(json(view)).toContain('"initial_value":"243812345678"');
    expect(json(view)).toContain('"initial_option":{"text":{"type":"plain_text","text":"USD","emoji":true},"value":"USD"}');
    expect(checkView(view as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('offers only configured currencies and never preselects one it does not offer', () => {
    const view = buildPayoutForm(surface, 'bank_account', choices, { currency: 'GBP' });
    expect(json(view)).not.toContain('initial_option');
    expect(json(view)).toContain('Bank code (BIC)');
    expect(json(view)).not.toContain(PAYOUT_FIELD_BLOCKS.operator);
  });

  it('offers both kinds in the chooser and keeps the command text only as a prefill', () => {
    const view = buildPayoutChooser(surface, '243812345678 150 USD');
    expect(buttons(view.blocks)).toEqual([PAYOUT_ACTIONS.chooseMobileMoney, PAYOUT_ACTIONS.chooseBankAccount]);
    expect(view.private_metadata).toBe('243812345678 150 USD');
  });

  it('reviews the amount exactly as sent and escapes what people typed', () => {
    const draft = request({ recipient: { phone: '243812345678', name: '<!channel> & co', countryCode: 'CD' }, note: '<'.repeat(500) });
    const view = buildPayoutReview(surface, draft, 'C0APPROVALS');
    expect(json(view)).toContain('*1,500.50 USD*');
    expect(json(view)).toContain('amount `1500.5`');
    expect(json(view)).toContain('&lt;!channel&gt; &amp; co');
    expect(json(view.blocks)).not.toContain('<!channel>');
    expect(view.submit?.text).toBe('Submit for approval');
    expect(buttons(view.blocks)).toEqual([PAYOUT_ACTIONS.backToForm]);
    expect(checkView(view as unknown as Record<string, unknown>)).toEqual([]);
  });
});

describe('approval message', () => {
  it('offers Approve, Reject and Cancel only while nothing is approved', () => {
    expect(buttons(buildApprovalMessage(surface, request()).blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject, PAYOUT_ACTIONS.cancel]);
    const half = buildApprovalMessage(surface, request({ approvals: [{ userId: 'U0APPROVER', at }] }));
    expect(buttons(half.blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    expect(json(half.blocks)).toContain('Approved by <@U0APPROVER>');
    expect(json(half.blocks)).toContain('(1 of 2)');
    expect(json(half.blocks)).toContain('Needs 2 different approvers.');
  });

  it('asks before cancelling a request, in the reader\'s language, since it cannot be undone', () => {
    for (const [locale, title, deny] of [['en', 'Cancel this request?', 'Keep it'], ['fr', 'Annuler cette demande ?', 'La garder']] as const) {
      const message = buildApprovalMessage({ ...surface, locale }, request());
      const cancel = (message.blocks.find((block) => block.type === 'actions') as { elements: Array<{ action_id: string; confirm?: { title: { text: string }; text: { text: string }; deny: { text: string } } }> })
        .elements.find((element) => element.action_id === PAYOUT_ACTIONS.cancel);
      expect(cancel?.confirm?.title.text).toBe(title);
      expect(cancel?.confirm?.deny.text).toBe(deny);
      expect(cancel?.confirm?.text.text).toContain(request().id);
      expect(checkMessage(message.blocks, message.text)).toEqual([]);
    }
  });

  it('drops every button once nothing more can be done', () => {
    const finals: Array<Partial<PayoutRequest>> = [
      { state: 'completed', transactionId: 'PO-1' }, { state: 'failed', failureReason: 'Refused.' }, { state: 'rejected', rejectedBy: 'U0APPROVER', rejectReason: 'No' },
      { state: 'expired' }, { state: 'cancelled' }, { state: 'executing' }, { state: 'unknown', needsReview: false },
    ];
    for (const change of finals) expect(buttons(buildApprovalMessage(surface, request(change)).blocks), change.state).toEqual([]);
  });

  it('offers a retry with a warning only for an unknown payout that needs review', () => {
    const message = buildApprovalMessage(surface, request({ state: 'unknown', needsReview: true, failureReason: 'The Fleet API took too long to answer.' }));
    expect(buttons(message.blocks)).toEqual([PAYOUT_ACTIONS.retry]);
    expect(json(message.blocks)).toContain('"confirm":{"title":{"type":"plain_text","text":"Send this payout again?"');
    expect(json(message.blocks)).toContain('same reference, INV-2025-0042');
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
  });

  it('shows a likely match escaped and cut, with Confirm and Not this one instead of Retry', () => {
    const hostile = '<!channel> <http://evil.example|statement> &';
    const likelyMatch = {
      id: 'a1b2c3d4e5f6a1b2c3d4e5f6', reference: `${hostile}${'R'.repeat(3100)}`, date: '2026-11-21T09:59:00.000Z', amount: 1500.5, currency: 'USD',
      description: `Customer transfer for INV-2025-0042 ${hostile}${'<'.repeat(3000)}`, proposedAt: at,
    };
    const message = buildApprovalMessage(surface, request({ state: 'unknown', needsReview: true, likelyMatch }));
    expect(buttons(message.blocks)).toEqual([PAYOUT_ACTIONS.confirmMatch, PAYOUT_ACTIONS.rejectMatch]);
    expect(json(message.blocks)).toContain(`"value":"PR-7K3F9Q:${likelyMatch.id}"`);
    expect(json(message.blocks)).toContain('Likely match');
    expect(json(message.blocks)).toContain('&lt;!channel&gt;');
    expect(json(message.blocks)).not.toContain('<!channel>');
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
  });

  it('says who agreed to send again and how many more must', () => {
    const waiting = request({ state: 'unknown', needsReview: true, attempts: 1, retryApprovals: [{ userId: 'U0ABEL', at }] });
    expect(json(buildApprovalMessage(surface, waiting).blocks)).toContain('Retry approved by <@U0ABEL>; one more approver needed');
    const outage = request({ state: 'unknown', needsReview: true, lastSearch: 'could_not_check' });
    expect(json(buildApprovalMessage(surface, outage).blocks)).toContain('could not all be checked');
  });

  it('ends with the transaction id once sent, and the failure in words when refused', () => {
    const sent = buildApprovalMessage(surface, request({ state: 'completed', transactionId: 'PO-ABC' }));
    expect(sent.text).toContain('sent (transaction PO-ABC)');
    expect(json(sent.blocks)).toContain('*Sent.* Transaction `PO-ABC`.');
    const failed = buildApprovalMessage(surface, request({ state: 'failed', failureReason: 'The Fleet API refused the request: <b>bad</b>' }));
    expect(json(failed.blocks)).toContain('&lt;b&gt;bad&lt;/b&gt;');
    expect(json(failed.blocks)).toContain('no money moved');
  });

  const states: PayoutState[] = ['pending', 'approved', 'executing', 'completed', 'failed', 'unknown', 'rejected', 'expired', 'cancelled'];
  it.each(LOCALES.flatMap((locale) => states.map((state) => [locale, state] as const)))('stays within Block Kit limits in %s with the longest values when %s', (locale, state) => {
    const long = request({
      state, note: '&'.repeat(500), recipient: { phone: '243812345678', name: 'N'.repeat(100), countryCode: 'CD' }, reference: 'R'.repeat(40),
      failureReason: 'f'.repeat(2000), rejectReason: '<'.repeat(500), transactionId: 'T'.repeat(100), approvals: [{ userId: 'U1', at }, { userId: 'U2', at }],
      amountMinor: Number.MAX_SAFE_INTEGER,
    });
    const sandbox = { sandbox: true, locale };
    const message = buildApprovalMessage(sandbox, long);
    expect(checkMessage(message.blocks, message.text)).toEqual([]);
    expect(checkView(buildApproveModal(sandbox, long) as unknown as Record<string, unknown>)).toEqual([]);
    expect(checkView(buildRejectModal(sandbox, long) as unknown as Record<string, unknown>)).toEqual([]);
    for (const [change, review] of [[{ state: 'unknown', needsReview: true }, true], [{ state: 'unknown', needsReview: true, requiredApprovals: 2 }, true]] as const) {
      const retry = buildApprovalMessage(sandbox, { ...long, ...change });
      expect(checkMessage(retry.blocks, retry.text), String(review)).toEqual([]);
    }
  });

  it('tells the approver whether their approval sends the payout', () => {
    expect(json(buildApproveModal(surface, request({ requiredApprovals: 1 })))).toContain('the payout is sent to the Fleet API as soon as you press Approve and send');
    expect(buildApproveModal(surface, request({ requiredApprovals: 2 })).submit?.text).toBe('Approve');
  });

  it('tells the approver of a scheduled payout when it will be sent, and that approving does not send it now', () => {
    const dueAt = new Date('2026-12-01T08:00:00.000Z');
    const scheduled = request({
      requiredApprovals: 1,
      schedule: {
        requestId: 'PR-7K3F9Q', timeZone: 'Africa/Kinshasa', firstDay: '2026-12-01', time: { hour: 9, minute: 0 }, repeat: 'once', endsOn: undefined,
        cancelledBy: undefined, cancelledAt: undefined, occurrences: [{ requestId: 'PR-7K3F9Q', number: 1, dueAt, state: 'scheduled', hold: undefined, payoutId: undefined, version: 0 }],
      },
    });
    const modal = buildApproveModal(surface, scheduled);
    expect(json(modal)).toContain('Tue, Dec 1, 2026, 09:00');
    expect(json(modal)).toContain('Your approval is the last one needed: the payout is approved ahead and sent at its time');
    expect(json(modal)).not.toContain('as soon as you press');
    expect(modal.submit?.text).toBe('Approve');
    expect(json(buildPayoutHistory(surface, scheduled, []).blocks)).toContain('Tue, Dec 1, 2026, 09:00');
  });

  it('words an approved scheduled payout as scheduled, never as sending, in the list and the history', () => {
    const schedule = {
      requestId: 'PR-7K3F9Q', timeZone: 'UTC', firstDay: '2026-12-01', time: { hour: 9, minute: 0 }, repeat: 'once' as const, endsOn: undefined,
      cancelledBy: undefined, cancelledAt: undefined, occurrences: [{ requestId: 'PR-7K3F9Q', number: 1, dueAt: new Date('2026-12-01T09:00:00Z'), state: 'scheduled' as const, hold: undefined, payoutId: undefined, version: 0 }],
    };
    const ahead = request({ state: 'approved', schedule, approvals: [{ userId: 'U0APPROVER', at }] });
    for (const [reader, word, wrong] of [[surface, 'scheduled', 'sending'], [{ sandbox: false, locale: 'fr' as const }, 'planifié', 'envoi en cours']] as const) {
      expect(buildPayoutList(reader, [ahead]).text).toContain(word);
      expect(json(buildPayoutList(reader, [ahead]).blocks)).not.toContain(wrong);
      expect(buildPayoutHistory(reader, ahead, []).text).toContain(word);
    }
    // A payout approved now, not scheduled, is being sent.
    expect(buildPayoutList(surface, [request({ state: 'approved' })]).text).toContain('sending');
  });

  it('treats a one-off scheduled payout as one payout: sent as itself with its reference at its time, Cancel alone, then its outcome', () => {
    // A one-off is sent as the request itself: its occurrence names it from the start.
    const occurrence = { requestId: 'PR-7K3F9Q', number: 1, dueAt: new Date('2026-12-01T09:00:00Z'), state: 'scheduled' as const, hold: undefined, payoutId: 'PR-7K3F9Q', version: 0 };
    const schedule = {
      requestId: 'PR-7K3F9Q', timeZone: 'UTC', firstDay: '2026-12-01', time: { hour: 9, minute: 0 }, repeat: 'once' as const, endsOn: undefined,
      cancelledBy: undefined, cancelledAt: undefined, occurrences: [occurrence],
    };
    const ahead = request({ state: 'approved', schedule, approvals: [{ userId: 'U0APPROVER', at }] });
    const text = json(buildApprovalMessage(surface, ahead).blocks);
    expect(text).toContain('Sent at its time with the reference `INV-2025-0042`.');
    for (const wrong of ['INV-2025-0042-1', 'Each payout', 'Skip next', 'Cancel series']) expect(text).not.toContain(wrong);
    expect(text).toContain('Cancel scheduled payout');
    expect(text).toContain('Approved ahead: sent at its time.');
    const fr = { sandbox: false, locale: 'fr' as const };
    expect(json(buildApprovalMessage(fr, ahead).blocks)).toContain('Envoyé à son heure avec la référence `INV-2025-0042`.');
    expect(json(buildPayoutHistory(fr, ahead, []).blocks)).toContain('Envoyé à son heure avec la référence `INV-2025-0042`.');
    expect(json(buildPayoutHistory(fr, ahead, []).blocks)).not.toContain('INV-2025-0042-1');
    // Sent at its time: its own outcome, no longer approved ahead, and no line naming itself as its payout.
    const released = { ...schedule, occurrences: [{ ...occurrence, state: 'released' as const }] };
    const sent = json(buildApprovalMessage(surface, request({ state: 'completed', transactionId: 'PO-ABC', schedule: released, approvals: [{ userId: 'U0APPROVER', at }] })).blocks);
    expect(sent).toContain('*Sent.* Transaction `PO-ABC`');
    for (const wrong of ['Approved ahead', 'as PR-7K3F9Q', 'Cancel scheduled payout']) expect(sent).not.toContain(wrong);
    expect(buildPayoutList(surface, [request({ state: 'approved', schedule: released })]).text).toContain('sending');
    // One stored as a numbered copy before (its occurrence naming no payout while it waits) is sent as such.
    const numbered = { ...schedule, occurrences: [{ ...occurrence, payoutId: undefined }] };
    expect(json(buildApprovalMessage(surface, request({ state: 'approved', schedule: numbered })).blocks)).toContain('Sent with the reference `INV-2025-0042-1`');
    const copied = { ...schedule, occurrences: [{ ...occurrence, state: 'released' as const, payoutId: 'PR-9Z9Z9Z' }] };
    expect(json(buildApprovalMessage(surface, request({ state: 'approved', schedule: copied })).blocks)).toContain('Released at its time as PR-9Z9Z9Z');
  });

  it('shows an approver whose approval arrived twice the outcome, not a refusal', () => {
    const sent = request({ state: 'completed', transactionId: 'PO-ABC', approvals: [{ userId: 'U0APPROVER', at }] });
    const again = approvalOutcome({ ok: false, code: 'not_pending', details: { payoutId: 'PR-7K3F9Q', state: 'completed' }, request: sent }, 'U0APPROVER');
    expect(again.title).toBe('Payout PR-7K3F9Q');
    expect(again.text).toContain('Your approval is recorded.\n:white_check_mark: *Sent.* Transaction `PO-ABC`');
    const waiting = request({ approvals: [{ userId: 'U0APPROVER', at }] });
    const twice = approvalOutcome({ ok: false, code: 'already_approved', details: { action: 'approve' }, request: waiting }, 'U0APPROVER');
    expect(twice.text).toContain('Your approval is recorded. One more approver must approve');

    const someoneElse = approvalOutcome({ ok: false, code: 'not_pending', details: { payoutId: 'PR-7K3F9Q', state: 'completed' }, request: sent }, 'U0OTHER');
    expect(someoneElse).toEqual({ title: 'Not approved', text: ':no_entry: Payout PR-7K3F9Q was already sent.\nNothing was changed.' });
    const unreadable = approvalOutcome({ ok: false, code: 'could_not_check', details: { searchProblem: 'the list said <nothing>' } }, 'U0OTHER');
    expect(unreadable.text).toBe(':no_entry: Could not check the Fleet API\'s transactions: the list said &lt;nothing&gt;.\nNothing was changed.');
  });
});

describe('why two approvers are needed, and approvals that no longer count', () => {
  const byTotal = request({
    amountMinor: 100_000, dualApproval: { rule: 'requester_total', totalMinor: 500_000, thresholdMinor: 100_000 },
    approvals: [{ userId: 'U0ABEL', at, revokedAt: at }, { userId: 'U0ADA', at }],
  });

  it('names the rule, the total and the threshold on the approval message, the approve modal and the review', () => {
    const reason = 'Needs 2 approvers: the requester\'s USD total for the team’s day, 5,000.00 USD, is above 1,000.00 USD.';
    const message = buildApprovalMessage(surface, byTotal);
    expect(json(message.blocks)).toContain(reason);
    expect(json(buildApproveModal(surface, request({ dualApproval: byTotal.dualApproval })))).toContain(reason);
    expect(json(buildPayoutReview(surface, byTotal, 'C0APPROVALS', { required: 2, reason: { rule: 'recipient_total', totalMinor: 120_000, thresholdMinor: 100_000 } })))
      .toContain('Needs 2 approvers: the recipient\'s USD total for the team’s day, 1,200.00 USD, is above 1,000.00 USD.');
    expect(json(buildPayoutReview(surface, byTotal, 'C0APPROVALS', { required: 1, reason: undefined }))).not.toContain('Needs 2');
  });

  it('shows an approval that no longer counts as such, and waits for another', () => {
    const message = buildApprovalMessage(surface, byTotal);
    expect(json(message.blocks)).toContain('(1 of 2)');
    expect(json(message.blocks)).toContain('<@U0ABEL>\'s approval no longer counts: no longer an approver');
    expect(json(message.blocks)).toContain('Approved by <@U0ADA>');
    expect(json(message.blocks)).not.toContain('Approved by <@U0ABEL>');
    expect(json(message.blocks)).toContain('Waiting for one more approval');
    expect(buttons(message.blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    const outcome = approvalOutcome({ ok: true, request: byTotal }, 'U0ADA');
    expect(outcome.text).toContain('One more approver must approve before anything is sent.');
    expect(outcome.text).toContain('<@U0ABEL>\'s approval no longer counts: no longer an approver.');
  });

  it('says a fully approved request was held and why, to approvers and to the requester', () => {
    const held = request({ requiredApprovals: 1, approvals: [{ userId: 'U0ADA', at }], hold: 'requester_not_allowed' });
    const message = buildApprovalMessage(surface, held);
    expect(json(message.blocks)).toContain('*Held.* Not sent: <@U0REQUESTER> may no longer request payouts.');
    expect(message.text).toContain('held, not sent');
    expect(buttons(message.blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    expect(json(buildApproveModal(surface, held))).toContain('checks everyone\'s roles again');
    expect(approvalOutcome({ ok: true, request: held }, 'U0ADA').text).toContain('Your approval is recorded, but nothing was sent.');
    expect(json(buildRequesterUpdate(surface, held, 'held', 'U0ADA')?.blocks)).toContain('was not sent: you may no longer request payouts');
    expect(buildRequesterUpdate(surface, held, 'approved', 'U0ADA')).toBeUndefined();
    expect(buildRequesterUpdate(surface, { ...held, hold: 'roles_unavailable' }, 'held', 'U0ADA')).toBeUndefined();
    expect(buildRequesterUpdate(surface, byTotal, 'approval_revoked', 'U0ADA')).toBeUndefined();
    expect(json(buildRequesterUpdate(surface, byTotal, 'approvals_raised', undefined)?.blocks)).toContain('now needs two approvers. Needs 2 approvers: the requester');
  });

  it('says, in English and French, why the gate before sending held a request and what it waits for', () => {
    const holds = ['needs_approvers', 'needs_senior', 'over_daily_limit', 'over_max_amount', 'not_offered', 'duplicate_unchecked', 'missed'] as const;
    for (const hold of holds) {
      const held = request({ requiredApprovals: 1, approvals: [{ userId: 'U0ADA', at }], hold });
      for (const locale of LOCALES) {
        const french = locale === 'fr';
        const message = json(buildApprovalMessage({ ...surface, locale }, held).blocks);
        expect(message).toContain(french ? 'Non envoyé' : 'Not sent');
        expect(message).toContain(french ? 'Approuver' : 'Approve');
        expect(json(buildRequesterUpdate({ ...surface, locale }, held, 'held', undefined)?.blocks)).toContain(french ? 'pas encore été envoyé' : 'was not sent yet');
      }
    }
    const senior = json(buildApprovalMessage(surface, request({ approvals: [{ userId: 'U0ADA', at }], hold: 'needs_senior' })).blocks);
    expect(senior).toContain('one approval must come from a senior approver who still is one');
    const unknown = request({ state: 'unknown', needsReview: true, hold: 'missed' });
    expect(json(buildApprovalMessage(surface, unknown).blocks)).toContain('presses Retry with the same reference again');
    const events: PayoutEvent[] = [{ id: 1, requestId: unknown.id, event: 'held', userId: undefined, at, details: { reason: 'duplicate_unchecked', via: 'bulk' } }];
    expect(json(buildPayoutHistory(surface, unknown, events).blocks)).toContain('it may repeat a payout requested since it was approved, and needs a tick');
  });

  it('tells the history of raised requirements, revoked approvals and holds', () => {
    const events: PayoutEvent[] = [
      { id: 1, requestId: byTotal.id, event: 'approvals_raised', userId: undefined, at, details: { required: 2, currency: 'USD', rule: 'recipient_total', totalMinor: 250_000, thresholdMinor: 100_000 } },
      { id: 2, requestId: byTotal.id, event: 'approval_revoked', userId: 'U0ADA', at, details: { approver: 'U0ABEL', reason: 'not_approver' } },
      { id: 3, requestId: byTotal.id, event: 'held', userId: 'U0ADA', at, details: { reason: 'requester_not_allowed' } },
    ];
    const history = json(buildPayoutHistory(surface, byTotal, events).blocks);
    expect(history).toContain('Needs 2 approvers: the recipient\'s USD total for the team’s day, 2,500.00 USD, is above 1,000.00 USD.');
    expect(history).toContain('<@U0ABEL>\'s approval no longer counts: no longer an approver (checked by <@U0ADA>)');
    expect(history).toContain('Not sent on the approval by <@U0ADA>: the requester may no longer request payouts');
  });

  it('stays within Block Kit limits with many approvals that no longer count', () => {
    const crowded = request({
      state: 'pending', hold: 'roles_unavailable', note: '<'.repeat(500), recipient: { phone: '243812345678', name: 'N'.repeat(100), countryCode: 'CD' },
      approvals: Array.from({ length: 20 }, (_, index) => ({ userId: `U0CROWD${index}`, at, revokedAt: index % 2 === 0 ? at : undefined })),
      dualApproval: { rule: 'recipient_total', totalMinor: Number.MAX_SAFE_INTEGER, thresholdMinor: 100_000 },
    });
    for (const locale of LOCALES) {
      const message = buildApprovalMessage({ sandbox: true, locale }, crowded);
      expect(checkMessage(message.blocks, message.text), locale).toEqual([]);
      expect(checkView(buildApproveModal({ sandbox: true, locale }, crowded) as unknown as Record<string, unknown>), locale).toEqual([]);
      const outcome = approvalOutcome({ ok: true, request: crowded }, 'U0CROWD1', locale);
      expect(checkView(noticeModal({ sandbox: true, locale }, { title: outcome.title, text: outcome.text, callbackId: PAYOUT_VIEWS.notice }) as unknown as Record<string, unknown>), locale).toEqual([]);
    }
  });
});

describe('requester messages and history', () => {
  it('says nothing when sending starts, and gives the reason of a rejection escaped', () => {
    expect(buildRequesterUpdate(surface, request({ state: 'executing' }), 'executing', 'U0APPROVER')).toBeUndefined();
    expect(buildRequesterUpdate(surface, request({ state: 'approved' }), 'approved', 'U0APPROVER')).toBeUndefined();
    const rejected = buildRequesterUpdate(surface, request({ state: 'rejected', rejectedBy: 'U0APPROVER', rejectReason: 'Wrong <@U0BOSS>' }), 'rejected', 'U0APPROVER');
    expect(json(rejected?.blocks)).toContain('<@U0APPROVER> rejected your payout');
    expect(json(rejected?.blocks)).toContain('Wrong &lt;@U0BOSS&gt;');
  });

  it.each(LOCALES)('lists recent payouts and one history within Block Kit limits in %s', (locale) => {
    const reader = { sandbox: true, locale };
    const list = buildPayoutList(reader, Array.from({ length: 15 }, (_, index) => request({ id: `PR-AAAAA${index}`, recipient: { phone: '1', name: '<'.repeat(100), countryCode: 'CD' } })));
    expect(checkMessage(list.blocks, list.text)).toEqual([]);
    const events: PayoutEvent[] = Array.from({ length: 60 }, (_, index) => ({
      id: index, requestId: 'PR-7K3F9Q', event: PAYOUT_EVENT_NAMES[index % PAYOUT_EVENT_NAMES.length]!, userId: 'U0APPROVER', at,
      details: { reason: '<'.repeat(500), transactionId: 'T'.repeat(300), approvals: 1, required: 2, attempt: 2 },
    }));
    const history = buildPayoutHistory(reader, request({ note: '&'.repeat(500) }), events);
    expect(json(history.blocks)).toContain(locale === 'fr' ? '25 derniers sur 60' : 'last 25 of 60');
    expect(checkMessage(history.blocks, history.text)).toEqual([]);
    for (const event of PAYOUT_EVENT_NAMES) {
      const update = buildRequesterUpdate(reader, request({ failureReason: 'f'.repeat(2000), rejectReason: '<'.repeat(500), transactionId: 'T'.repeat(300) }), event, 'U0APPROVER', 'C0APPROVALS');
      if (update) expect(checkMessage(update.blocks, update.text), event).toEqual([]);
    }
  });
});

describe('a request a workflow made in the requester\'s name', () => {
  const through = { en: "Requested by a workflow in <@U0REQUESTER>'s name; they confirmed it", fr: 'Demandé par un workflow au nom de <@U0REQUESTER>' };

  it.each(LOCALES)('says so on the approval message, in the approve window and in its history, in %s', (locale) => {
    const reader = { sandbox: false, locale };
    const made = request({ requestedThrough: 'workflow' });
    expect(json(buildApprovalMessage(reader, made).blocks)).toContain(through[locale]);
    expect(json(buildApproveModal(reader, made).blocks)).toContain(through[locale]);
    const requested: PayoutEvent = { id: 1, requestId: made.id, event: 'requested', userId: 'U0REQUESTER', at, details: { through: 'workflow' } };
    expect(json(buildPayoutHistory(reader, made, [requested]).blocks)).toContain(locale === 'fr' ? 'par un workflow confirmé par le demandeur' : 'through a workflow they confirmed');
  });

  it('says nothing of the kind for a request made in the app', () => {
    expect(json(buildApprovalMessage(surface, request()).blocks)).not.toContain('workflow');
    expect(json(buildApproveModal(surface, request()).blocks)).not.toContain('workflow');
  });
});

describe('text people or the Fleet API wrote', () => {
  const hostile = '<!channel> <http://evil.example|bank> <@U0BOSS> &';
  const typed = request({
    recipient: { phone: '243812345678', name: hostile, countryCode: 'CD' }, note: hostile, rejectReason: hostile, failureReason: hostile,
    transactionId: hostile, rejectedBy: 'U0APPROVER', approvals: [{ userId: 'U0APPROVER', at }], retryApprovals: [{ userId: hostile, at }],
    likelyMatch: { id: 'a'.repeat(24), reference: hostile, date: hostile, amount: 1, currency: hostile, description: hostile, proposedAt: at },
  });
  const surfaces = (state: PayoutState, needsReview = false) => LOCALES.flatMap((locale) => {
    const surface = { sandbox: false, locale };
    const shown: PayoutRequest = { ...typed, state, needsReview };
    const events: PayoutEvent[] = PAYOUT_EVENT_NAMES
      .map((event, index) => ({ id: index, requestId: shown.id, event, userId: 'U0APPROVER', at, details: { reason: hostile, transactionId: hostile } }));
    return [
      buildApprovalMessage(surface, shown), buildApproveModal(surface, shown), buildRejectModal(surface, shown), buildPayoutReview(surface, shown, 'C0APPROVALS'),
      buildPayoutSubmitted(surface, shown, 'C0APPROVALS'), buildPayoutList(surface, [shown]), buildPayoutHistory(surface, shown, events),
      approvalOutcome({ ok: true, request: shown }, 'U0APPROVER', locale),
      approvalOutcome({ ok: false, code: 'could_not_check', details: { searchProblem: hostile } }, 'U0APPROVER', locale),
      ...events.map((event) => buildRequesterUpdate(surface, shown, event.event, 'U0APPROVER', 'C0APPROVALS')),
    ];
  });

  it('can never ping, link or mention from any payout surface, in any state', () => {
    for (const [state, needsReview] of [...PAYOUT_STATES.map((state) => [state, false] as const), ['unknown', true] as const]) {
      // private_metadata is never shown: the review keeps the draft there as typed.
      const text = JSON.stringify(surfaces(state, needsReview), (key, value: unknown) => (key === 'private_metadata' ? undefined : value));
      expect(text, state).toContain('&lt;!channel&gt;');
      for (const raw of ['<!channel>', '<http://evil', '<@U0BOSS>']) expect(text, `${state}: ${raw}`).not.toContain(raw);
    }
  });
});

describe('why the Fleet API failed a payout, in the reader\'s language', () => {
  const failed = (failureReason: string) => request({ state: 'failed', failureReason, approvals: [{ userId: 'U0APPROVER', at }] });
  const dm = (locale: 'en' | 'fr', shown: PayoutRequest) => json(buildRequesterUpdate({ sandbox: false, locale }, shown, 'failed', 'U0APPROVER')!.blocks);

  it('words a stored error code in each language', () => {
    expect(dm('en', failed('fleet:unavailable'))).toContain('failed: The Fleet API is unavailable right now.');
    expect(dm('fr', failed('fleet:unavailable'))).toContain('a échoué : L’API Fleet est indisponible pour le moment.');
  });

  it('quotes the API\'s own words of a refusal, escaped, inside the reader\'s sentence', () => {
    const shown = failed('fleet:rejected:Insufficient <!channel> funds');
    expect(dm('fr', shown)).toContain('L’API Fleet a refusé la demande : Insufficient &lt;!channel&gt; funds');
    expect(dm('en', failed('fleet:rejected'))).toContain('The Fleet API refused the request.');
  });

  it('says a conflict may mean the payout already exists', () => {
    const shown = failed('fleet:conflict:duplicate reference');
    expect(dm('en', shown)).toContain('The Fleet API refused the request: duplicate reference A payout with this reference may already exist.');
    expect(dm('fr', shown)).toContain('Un paiement avec cette référence existe peut-être déjà.');
  });

  it('words the reason in the history too', () => {
    const events: PayoutEvent[] = [{ id: 1, requestId: 'PR-7K3F9Q', event: 'failed', userId: undefined, at, details: { code: 'unavailable', reason: 'fleet:unavailable' } }];
    expect(json(buildPayoutHistory({ sandbox: false, locale: 'fr' }, failed('fleet:unavailable'), events))).toContain('L’API Fleet est indisponible');
  });

  it('words a reason an older version stored as the client\'s English sentence in the reader\'s language, and shows any other sentence as it is', () => {
    expect(dm('fr', failed('The Fleet API refused the request (HTTP 400).'))).toContain('a échoué : L’API Fleet a refusé la demande.');
    expect(dm('fr', failed('Something only a person wrote.'))).toContain('a échoué : Something only a person wrote.');
  });
});

describe('the approve window of a request that needs two approvers', () => {
  const times = (haystack: string, needle: string) => haystack.split(needle).length - 1;

  it('says once why two different approvers are needed, and that one more must approve after this one', () => {
    const english = json(buildApproveModal(surface, request({ requiredApprovals: 2, approvals: [] })).blocks);
    expect(times(english, 'Needs 2 different approvers')).toBe(1);
    expect(english).toContain('After yours, one more approver must approve before anything is sent.');
    const french = json(buildApproveModal({ sandbox: false, locale: 'fr' }, request({ requiredApprovals: 2, approvals: [] })).blocks);
    expect(times(french, 'Nécessite 2 approbateurs différents')).toBe(1);
    expect(french).toContain('Après la vôtre, un autre approbateur doit encore approuver avant tout envoi.');
  });
});

describe('the money flow, as the Fleet API spec describes it', () => {
  const flow = "Sending this payout debits the platform's wallet user and credits the fleet account with the amount above: the fleet account's USD balance goes up by that amount. The partner then credits its own customer, the recipient above.";
  const wrong = /from the fleet account|debits the fleet account|fleet account's \w+ balance goes down/i;

  it('is stated on the review screen, with the effect on the fleet account\'s balance', () => {
    const review = json(buildPayoutReview(surface, request(), 'C0APPROVALS').blocks);
    expect(review).toContain(flow);
    expect(review).not.toMatch(wrong);
  });

  it('is stated in the approval message and the approve modal', () => {
    const message = buildApprovalMessage(surface, request());
    expect(json(message.blocks)).toContain(flow);
    expect(`${message.text}${json(message.blocks)}`).not.toMatch(wrong);
    expect(json(buildApproveModal(surface, request()).blocks)).toContain(flow);
  });

  it('follows the Amount field that names the payout\'s own amount, and names its currency', () => {
    const cdf = json(buildApprovalMessage(surface, request({ amountMinor: 250_000_000, currency: 'CDF' })).blocks);
    expect(cdf).toContain('*Amount*\\n*2,500,000.00 CDF*');
    expect(cdf).toContain("credits the fleet account with the amount above: the fleet account's CDF balance goes up by that amount");
  });
});

describe('the approval side in French', () => {
  const fr = { sandbox: false, locale: 'fr' as const };
  // The narrow no-break space French puts between thousands.
  const thin = '\u202f';
  const texts = (value: unknown): string[] => {
    const found: string[] = [];
    JSON.stringify(value, (key, inner: unknown) => {
      if (key === 'text' && typeof inner === 'string') found.push(inner);
      return inner;
    });
    return found;
  };

  it('opens the approve modal in French with the amount written the French way', () => {
    const modal = buildApproveModal(fr, request({ requiredApprovals: 1 }));
    expect(modal.title.text).toBe('Approuver PR-7K3F9Q');
    expect(modal.submit?.text).toBe('Approuver et envoyer');
    expect(modal.close?.text).toBe('Annuler');
    const body = json(modal.blocks);
    expect(body).toContain(`<@U0REQUESTER> demande l’envoi de *1${thin}500,50 USD* par mobile money à *`);
    expect(body).toContain(`*Montant*\\n*1${thin}500,50 USD*`);
    expect(body).toContain('le paiement part vers l’API Fleet dès que vous appuyez sur Approuver et envoyer');
    // What the API receives is shown as it is sent, whatever the reader's language.
    expect(body).toContain('le montant `1500.5`');
    expect(body).not.toContain('1,500.50');
    expect(checkView(modal as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('writes the approval message, its buttons and its confirmations in French, none of them cut', () => {
    const pending = buildApprovalMessage(fr, request());
    expect(pending.blocks[0]).toMatchObject({ type: 'header', text: { text: `Paiement PR-7K3F9Q · 1${thin}500,50 USD` } });
    expect(json(pending.blocks)).toContain('*Approbations* (0 sur 2)');
    expect(json(pending.blocks)).toContain('En attente de 2 approbations');
    expect(pending.text).toBe(`Paiement PR-7K3F9Q: 1${thin}500,50 USD par mobile money à ${request().recipient.name}: en attente d’approbation`);
    const review = buildApprovalMessage(fr, request({ state: 'unknown', needsReview: true, reference: 'R'.repeat(40) }));
    const match = buildApprovalMessage(fr, request({
      state: 'unknown', needsReview: true,
      likelyMatch: { id: 'a'.repeat(24), reference: 'FLT-1', date: at.toISOString(), amount: 1500.5, currency: 'USD', description: 'Virement INV-2025-0042', proposedAt: at },
    }));
    expect(json(match.blocks)).toContain(`*Transaction* \`FLT-1\``);
    expect(json(match.blocks)).toContain(`*1${thin}500,50 USD*`);
    const shown = [...texts(pending.blocks), ...texts(review.blocks), ...texts(match.blocks)];
    for (const label of ['Approuver', 'Rejeter', 'Annuler la demande', 'Renvoyer avec la même référence', 'Confirmer l’envoi', 'Pas celle-ci', 'Renvoyer ce paiement ?', 'Est-ce bien ce paiement ?']) {
      expect(shown, label).toContain(label);
    }
    for (const text of shown) expect(text.endsWith('…'), text).toBe(false);
    for (const message of [pending, review, match]) expect(checkMessage(message.blocks, message.text)).toEqual([]);
  });

  it('keeps every modal title and button of the approval side whole in French', () => {
    for (const state of ['pending', 'unknown'] as const) {
      const shown = request({ state, needsReview: true, requiredApprovals: 2 });
      for (const modal of [buildApproveModal(fr, shown), buildRejectModal(fr, shown)]) {
        for (const label of [modal.title.text, modal.submit?.text ?? '', modal.close?.text ?? '']) {
          expect(label.length, label).toBeLessThanOrEqual(24);
          expect(label.endsWith('…'), label).toBe(false);
        }
      }
    }
    expect(buildRejectModal(fr, request()).title.text).toBe('Rejeter PR-7K3F9Q');
  });

  it('tells the approver their approval\'s outcome, and a refusal, in French', () => {
    const waiting = approvalOutcome({ ok: true, request: request({ approvals: [{ userId: 'U0APPROVER', at }] }) }, 'U0APPROVER', 'fr');
    expect(waiting).toEqual({
      title: 'Paiement PR-7K3F9Q',
      text: ':white_check_mark: Votre approbation est enregistrée. Un autre approbateur doit encore approuver avant tout envoi.\nNécessite 2 approbateurs différents.',
    });
    const refused = approvalOutcome({ ok: false, code: 'own_request', details: { action: 'approve' } }, 'U0REQUESTER', 'fr');
    expect(refused.title).toBe('Non approuvé');
    expect(refused.text).toMatch(/^:no_entry: Vous avez demandé ce paiement.*\nRien n’a été modifié\.$/);
  });

  it('writes the dual-approval reason with French amounts', () => {
    const byTotal = request({ dualApproval: { rule: 'requester_total', totalMinor: 500_000, thresholdMinor: 100_000 } });
    expect(json(buildApprovalMessage(fr, byTotal).blocks))
      .toContain(`Nécessite 2 approbateurs : le total du jour de l’équipe du demandeur en USD, 5${thin}000,00 USD, dépasse 1${thin}000,00 USD.`);
  });

  it('sends the requester their messages in French', () => {
    const sent = buildRequesterUpdate(fr, request({ state: 'completed', transactionId: 'PO-ABC' }), 'completed', 'U0APPROVER');
    expect(json(sent?.blocks)).toContain(`:white_check_mark: Votre paiement *PR-7K3F9Q* (*1${thin}500,50 USD* par mobile money à *`);
    expect(json(sent?.blocks)).toContain('a été envoyé. Transaction `PO-ABC`.');
    expect(sent?.text).toMatch(/: envoyé \(transaction PO-ABC\)$/);
    const rejected = buildRequesterUpdate(fr, request({ state: 'rejected', rejectedBy: 'U0APPROVER', rejectReason: 'Mauvais numéro' }), 'rejected', 'U0APPROVER');
    expect(json(rejected?.blocks)).toContain('<@U0APPROVER> a rejeté votre paiement *PR-7K3F9Q*');
    expect(json(rejected?.blocks)).toContain(': Mauvais numéro');
  });

  it('words the app\'s own reason for an unknown outcome in the reader\'s language, and the Fleet API\'s as it said it', () => {
    const interrupted = request({ state: 'unknown', failureReason: INTERRUPTED_FAILURE });
    expect(json(buildApprovalMessage(fr, interrupted).blocks)).toContain('*Résultat inconnu :* L’application s’est arrêtée pendant l’envoi de ce paiement');
    expect(json(buildApprovalMessage(surface, interrupted).blocks)).toContain('*Outcome unknown:* The app stopped while sending this payout');
    const timedOut = request({ state: 'unknown', failureReason: 'The Fleet API took too long to answer <b>.' });
    expect(json(buildRequesterUpdate(fr, timedOut, 'unknown', undefined)?.blocks)).toContain('(The Fleet API took too long to answer &lt;b&gt;.)');
  });

  it('repeats the details on the French review screen the French way, the amount once', () => {
    const review = json(buildPayoutReview(fr, request(), 'C0APPROVALS', { required: 2, reason: { rule: 'amount', totalMinor: 150_050, thresholdMinor: 100_000 } }).blocks);
    expect(review).toContain(`*Montant*\\n*1${thin}500,50 USD*`);
    expect(review.split(`1${thin}500,50 USD`)).toHaveLength(2);
    expect(review).toContain(`Nécessite 2 approbateurs : le montant dépasse 1${thin}000,00 USD.`);
    expect(review).not.toContain('1,500.50');
  });

  it('lists payouts and tells a history in French', () => {
    const list = buildPayoutList(fr, [request()]);
    expect(list.blocks[0]).toMatchObject({ text: { text: 'Paiements récents' } });
    expect(json(list.blocks)).toContain('*en attente d’approbation*\\nDemandé par <@U0REQUESTER>');
    const events: PayoutEvent[] = [
      { id: 1, requestId: 'PR-7K3F9Q', event: 'requested', userId: 'U0REQUESTER', at, details: {} },
      { id: 2, requestId: 'PR-7K3F9Q', event: 'approved', userId: 'U0APPROVER', at, details: { approvals: 1, required: 2 } },
      { id: 3, requestId: 'PR-7K3F9Q', event: 'unknown', userId: undefined, at, details: { reason: 'interrupted' } },
    ];
    const history = json(buildPayoutHistory(fr, request(), events).blocks);
    expect(history).toContain('Demandé par <@U0REQUESTER>');
    expect(history).toContain('Approuvé par <@U0APPROVER> (1 sur 2)');
    expect(history).toContain('Résultat inconnu : l’application s’est arrêtée pendant l’envoi');
    expect(history).toContain('*Historique*');
  });
});
