/** The approval channel's message and the approve window: who approved, who must still, and what no longer counts. */
import { describe, expect, it } from 'vitest';
import type { PayoutEvent, PayoutRequest, PayoutState } from '../../../src/payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_VIEWS } from '../../../src/slack/ids.js';
import { noticeModal } from '../../../src/slack/views/notice.js';
import { approvalOutcome, buildApprovalMessage, buildApproveModal, buildRejectModal } from '../../../src/slack/views/payout-approval.js';
import { buildPayoutReview } from '../../../src/slack/views/payout-form.js';
import { buildPayoutHistory, buildPayoutList } from '../../../src/slack/views/payout-history.js';
import { buildScheduledList } from '../../../src/slack/views/payout-schedule.js';
import { buildRequesterUpdate } from '../../../src/slack/views/payout-updates.js';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { LOCALES } from '../../../src/i18n/index.js';
import { at, buttons, json, request, surface } from '../../support/payout-view-fixtures.js';

describe('approval message', () => {
  it('offers Approve, Reject and Cancel only while nothing is approved', () => {
    expect(buttons(buildApprovalMessage(surface, request()).blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject, PAYOUT_ACTIONS.cancel]);
    const half = buildApprovalMessage(surface, request({ approvals: [{ userId: 'U0APPROVER', at }] }));
    expect(buttons(half.blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    expect(json(half.blocks)).toContain('Approved by <@U0APPROVER>');
    expect(json(half.blocks)).toContain('(1 of 2)');
    expect(json(half.blocks)).toContain('Needs 2 different approvers.');
  });

  it("asks before cancelling a request, in the reader's language, since it cannot be undone", () => {
    for (const [locale, title, deny] of [
      ['en', 'Cancel this request?', 'Keep it'],
      ['fr', 'Annuler cette demande ?', 'La garder'],
    ] as const) {
      const message = buildApprovalMessage({ ...surface, locale }, request());
      const cancel = (
        message.blocks.find((block) => block.type === 'actions') as {
          elements: Array<{ action_id: string; confirm?: { title: { text: string }; text: { text: string }; deny: { text: string } } }>;
        }
      ).elements.find((element) => element.action_id === PAYOUT_ACTIONS.cancel);
      expect(cancel?.confirm?.title.text).toBe(title);
      expect(cancel?.confirm?.deny.text).toBe(deny);
      expect(cancel?.confirm?.text.text).toContain(request().id);
      expect(checkMessage(message.blocks, message.text)).toEqual([]);
    }
  });

  it('drops every button once nothing more can be done', () => {
    const finals: Array<Partial<PayoutRequest>> = [
      { state: 'completed', transactionId: 'PO-1' },
      { state: 'failed', failureReason: 'Refused.' },
      { state: 'rejected', rejectedBy: 'U0APPROVER', rejectReason: 'No' },
      { state: 'expired' },
      { state: 'cancelled' },
      { state: 'executing' },
      { state: 'unknown', needsReview: false },
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
      id: 'a1b2c3d4e5f6a1b2c3d4e5f6',
      reference: `${hostile}${'R'.repeat(3100)}`,
      date: '2026-11-21T09:59:00.000Z',
      amount: 1500.5,
      currency: 'USD',
      description: `Customer transfer for INV-2025-0042 ${hostile}${'<'.repeat(3000)}`,
      proposedAt: at,
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
  it.each(LOCALES.flatMap((locale) => states.map((state) => [locale, state] as const)))(
    'stays within Block Kit limits in %s with the longest values when %s',
    (locale, state) => {
      const long = request({
        state,
        note: '&'.repeat(500),
        recipient: { phone: '243812345678', name: 'N'.repeat(100), countryCode: 'CD' },
        reference: 'R'.repeat(40),
        failureReason: 'f'.repeat(2000),
        rejectReason: '<'.repeat(500),
        transactionId: 'T'.repeat(100),
        approvals: [
          { userId: 'U1', at },
          { userId: 'U2', at },
        ],
        amountMinor: Number.MAX_SAFE_INTEGER,
      });
      const sandbox = { sandbox: true, locale };
      const message = buildApprovalMessage(sandbox, long);
      expect(checkMessage(message.blocks, message.text)).toEqual([]);
      expect(checkView(buildApproveModal(sandbox, long) as unknown as Record<string, unknown>)).toEqual([]);
      expect(checkView(buildRejectModal(sandbox, long) as unknown as Record<string, unknown>)).toEqual([]);
      for (const [change, review] of [
        [{ state: 'unknown', needsReview: true }, true],
        [{ state: 'unknown', needsReview: true, requiredApprovals: 2 }, true],
      ] as const) {
        const retry = buildApprovalMessage(sandbox, { ...long, ...change });
        expect(checkMessage(retry.blocks, retry.text), String(review)).toEqual([]);
      }
    },
  );

  it('tells the approver whether their approval sends the payout', () => {
    expect(json(buildApproveModal(surface, request({ requiredApprovals: 1 })))).toContain(
      'the payout is sent to the Fleet API as soon as you press Approve and send',
    );
    expect(buildApproveModal(surface, request({ requiredApprovals: 2 })).submit?.text).toBe('Approve');
  });

  it('tells the approver of a scheduled payout when it will be sent, and that approving does not send it now', () => {
    const dueAt = new Date('2026-12-01T08:00:00.000Z');
    const scheduled = request({
      requiredApprovals: 1,
      schedule: {
        requestId: 'PR-7K3F9Q',
        timeZone: 'Africa/Kinshasa',
        firstDay: '2026-12-01',
        time: { hour: 9, minute: 0 },
        repeat: 'once',
        endsOn: undefined,
        cancelledBy: undefined,
        cancelledAt: undefined,
        occurrences: [{ requestId: 'PR-7K3F9Q', number: 1, dueAt, state: 'scheduled', hold: undefined, payoutId: undefined, version: 0 }],
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
      requestId: 'PR-7K3F9Q',
      timeZone: 'UTC',
      firstDay: '2026-12-01',
      time: { hour: 9, minute: 0 },
      repeat: 'once' as const,
      endsOn: undefined,
      cancelledBy: undefined,
      cancelledAt: undefined,
      occurrences: [
        {
          requestId: 'PR-7K3F9Q',
          number: 1,
          dueAt: new Date('2026-12-01T09:00:00Z'),
          state: 'scheduled' as const,
          hold: undefined,
          payoutId: undefined,
          version: 0,
        },
      ],
    };
    const ahead = request({ state: 'approved', schedule, approvals: [{ userId: 'U0APPROVER', at }] });
    for (const [reader, word, wrong] of [
      [surface, 'scheduled', 'sending'],
      [{ sandbox: false, locale: 'fr' as const }, 'planifié', 'envoi en cours'],
    ] as const) {
      expect(buildPayoutList(reader, [ahead]).text).toContain(word);
      expect(json(buildPayoutList(reader, [ahead]).blocks)).not.toContain(wrong);
      expect(buildPayoutHistory(reader, ahead, []).text).toContain(word);
    }
    // A payout approved now, not scheduled, is being sent.
    expect(buildPayoutList(surface, [request({ state: 'approved' })]).text).toContain('sending');
  });

  it('treats a one-off scheduled payout as one payout: sent as itself with its reference at its time, Cancel alone, then its outcome', () => {
    // A one-off is sent as the request itself: its occurrence names it from the start.
    const occurrence = {
      requestId: 'PR-7K3F9Q',
      number: 1,
      dueAt: new Date('2026-12-01T09:00:00Z'),
      state: 'scheduled' as const,
      hold: undefined,
      payoutId: 'PR-7K3F9Q',
      version: 0,
    };
    const schedule = {
      requestId: 'PR-7K3F9Q',
      timeZone: 'UTC',
      firstDay: '2026-12-01',
      time: { hour: 9, minute: 0 },
      repeat: 'once' as const,
      endsOn: undefined,
      cancelledBy: undefined,
      cancelledAt: undefined,
      occurrences: [occurrence],
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
    const sent = json(
      buildApprovalMessage(surface, request({ state: 'completed', transactionId: 'PO-ABC', schedule: released, approvals: [{ userId: 'U0APPROVER', at }] }))
        .blocks,
    );
    expect(sent).toContain('*Sent.* Transaction `PO-ABC`');
    for (const wrong of ['Approved ahead', 'as PR-7K3F9Q', 'Cancel scheduled payout']) expect(sent).not.toContain(wrong);
    expect(buildPayoutList(surface, [request({ state: 'approved', schedule: released })]).text).toContain('sending');
    // One stored as a numbered copy before (its occurrence naming no payout while it waits) is sent as such.
    const numbered = { ...schedule, occurrences: [{ ...occurrence, payoutId: undefined }] };
    expect(json(buildApprovalMessage(surface, request({ state: 'approved', schedule: numbered })).blocks)).toContain(
      'Sent with the reference `INV-2025-0042-1`',
    );
    const copied = { ...schedule, occurrences: [{ ...occurrence, state: 'released' as const, payoutId: 'PR-9Z9Z9Z' }] };
    expect(json(buildApprovalMessage(surface, request({ state: 'approved', schedule: copied })).blocks)).toContain('Released at its time as PR-9Z9Z9Z');
    // A weekly series whose end leaves one payout is sent as itself too: one payout, nothing next to skip.
    const single = request({
      state: 'approved',
      schedule: { ...schedule, repeat: 'weekly' as const, endsOn: '2026-12-05' },
      approvals: [{ userId: 'U0APPROVER', at }],
    });
    const singleText = json(buildApprovalMessage(surface, single).blocks);
    for (const wrong of ['Skip next', 'Cancel series', 'each payout is sent at its time']) expect(singleText).not.toContain(wrong);
    expect(singleText).toContain('Cancel scheduled payout');
    expect(singleText).toContain('Approved ahead: sent at its time.');
    expect(json(buildScheduledList(surface, [{ occurrence, request: single }], 'UTC').blocks)).not.toContain('Skip next');
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
    expect(unreadable.text).toBe(":no_entry: Could not check the Fleet API's transactions: the list said &lt;nothing&gt;.\nNothing was changed.");
  });
});

describe('why two approvers are needed, and approvals that no longer count', () => {
  const byTotal = request({
    amountMinor: 100_000,
    dualApproval: { rule: 'requester_total', totalMinor: 500_000, thresholdMinor: 100_000 },
    approvals: [
      { userId: 'U0ABEL', at, revokedAt: at },
      { userId: 'U0ADA', at },
    ],
  });

  it('names the rule, the total and the threshold on the approval message, the approve modal and the review', () => {
    const reason = "Needs 2 approvers: the requester's USD total for the team’s day, 5,000.00 USD, is above 1,000.00 USD.";
    const message = buildApprovalMessage(surface, byTotal);
    expect(json(message.blocks)).toContain(reason);
    expect(json(buildApproveModal(surface, request({ dualApproval: byTotal.dualApproval })))).toContain(reason);
    expect(
      json(
        buildPayoutReview(surface, byTotal, 'C0APPROVALS', { required: 2, reason: { rule: 'recipient_total', totalMinor: 120_000, thresholdMinor: 100_000 } }),
      ),
    ).toContain("Needs 2 approvers: the recipient's USD total for the team’s day, 1,200.00 USD, is above 1,000.00 USD.");
    expect(json(buildPayoutReview(surface, byTotal, 'C0APPROVALS', { required: 1, reason: undefined }))).not.toContain('Needs 2');
  });

  it('shows an approval that no longer counts as such, and waits for another', () => {
    const message = buildApprovalMessage(surface, byTotal);
    expect(json(message.blocks)).toContain('(1 of 2)');
    expect(json(message.blocks)).toContain("<@U0ABEL>'s approval no longer counts: no longer an approver");
    expect(json(message.blocks)).toContain('Approved by <@U0ADA>');
    expect(json(message.blocks)).not.toContain('Approved by <@U0ABEL>');
    expect(json(message.blocks)).toContain('Waiting for one more approval');
    expect(buttons(message.blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    const outcome = approvalOutcome({ ok: true, request: byTotal }, 'U0ADA');
    expect(outcome.text).toContain('One more approver must approve before anything is sent.');
    expect(outcome.text).toContain("<@U0ABEL>'s approval no longer counts: no longer an approver.");
  });

  it('says a fully approved request was held and why, to approvers and to the requester', () => {
    const held = request({ requiredApprovals: 1, approvals: [{ userId: 'U0ADA', at }], hold: 'requester_not_allowed' });
    const message = buildApprovalMessage(surface, held);
    expect(json(message.blocks)).toContain('*Held.* Not sent: <@U0REQUESTER> may no longer request payouts.');
    expect(message.text).toContain('held, not sent');
    expect(buttons(message.blocks)).toEqual([PAYOUT_ACTIONS.approve, PAYOUT_ACTIONS.reject]);
    expect(json(buildApproveModal(surface, held))).toContain("checks everyone's roles again");
    expect(approvalOutcome({ ok: true, request: held }, 'U0ADA').text).toContain('Your approval is recorded, but nothing was sent.');
    expect(json(buildRequesterUpdate(surface, held, 'held', 'U0ADA')?.blocks)).toContain('was not sent: you may no longer request payouts');
    expect(buildRequesterUpdate(surface, held, 'approved', 'U0ADA')).toBeUndefined();
    expect(buildRequesterUpdate(surface, { ...held, hold: 'roles_unavailable' }, 'held', 'U0ADA')).toBeUndefined();
    expect(buildRequesterUpdate(surface, byTotal, 'approval_revoked', 'U0ADA')).toBeUndefined();
    expect(json(buildRequesterUpdate(surface, byTotal, 'approvals_raised', undefined)?.blocks)).toContain(
      'now needs two approvers. Needs 2 approvers: the requester',
    );
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
        expect(json(buildRequesterUpdate({ ...surface, locale }, held, 'held', undefined)?.blocks)).toContain(
          french ? 'pas encore été envoyé' : 'was not sent yet',
        );
      }
    }
    const senior = json(buildApprovalMessage(surface, request({ approvals: [{ userId: 'U0ADA', at }], hold: 'needs_senior' })).blocks);
    expect(senior).toContain('one approval must come from a senior approver who still is one');
    const unknown = request({ state: 'unknown', needsReview: true, hold: 'missed' });
    expect(json(buildApprovalMessage(surface, unknown).blocks)).toContain('presses Retry with the same reference again');
    const events: PayoutEvent[] = [
      { id: 1, requestId: unknown.id, event: 'held', userId: undefined, at, details: { reason: 'duplicate_unchecked', via: 'bulk' } },
    ];
    expect(json(buildPayoutHistory(surface, unknown, events).blocks)).toContain('it may repeat a payout requested since it was approved, and needs a tick');
  });

  it('tells the history of raised requirements, revoked approvals and holds', () => {
    const events: PayoutEvent[] = [
      {
        id: 1,
        requestId: byTotal.id,
        event: 'approvals_raised',
        userId: undefined,
        at,
        details: { required: 2, currency: 'USD', rule: 'recipient_total', totalMinor: 250_000, thresholdMinor: 100_000 },
      },
      { id: 2, requestId: byTotal.id, event: 'approval_revoked', userId: 'U0ADA', at, details: { approver: 'U0ABEL', reason: 'not_approver' } },
      { id: 3, requestId: byTotal.id, event: 'held', userId: 'U0ADA', at, details: { reason: 'requester_not_allowed' } },
    ];
    const history = json(buildPayoutHistory(surface, byTotal, events).blocks);
    expect(history).toContain("Needs 2 approvers: the recipient's USD total for the team’s day, 2,500.00 USD, is above 1,000.00 USD.");
    expect(history).toContain("<@U0ABEL>'s approval no longer counts: no longer an approver (checked by <@U0ADA>)");
    expect(history).toContain('Not sent on the approval by <@U0ADA>: the requester may no longer request payouts');
  });

  it('stays within Block Kit limits with many approvals that no longer count', () => {
    const crowded = request({
      state: 'pending',
      hold: 'roles_unavailable',
      note: '<'.repeat(500),
      recipient: { phone: '243812345678', name: 'N'.repeat(100), countryCode: 'CD' },
      approvals: Array.from({ length: 20 }, (_, index) => ({ userId: `U0CROWD${index}`, at, revokedAt: index % 2 === 0 ? at : undefined })),
      dualApproval: { rule: 'recipient_total', totalMinor: Number.MAX_SAFE_INTEGER, thresholdMinor: 100_000 },
    });
    for (const locale of LOCALES) {
      const message = buildApprovalMessage({ sandbox: true, locale }, crowded);
      expect(checkMessage(message.blocks, message.text), locale).toEqual([]);
      expect(checkView(buildApproveModal({ sandbox: true, locale }, crowded) as unknown as Record<string, unknown>), locale).toEqual([]);
      const outcome = approvalOutcome({ ok: true, request: crowded }, 'U0CROWD1', locale);
      expect(
        checkView(
          noticeModal({ sandbox: true, locale }, { title: outcome.title, text: outcome.text, callbackId: PAYOUT_VIEWS.notice }) as unknown as Record<
            string,
            unknown
          >,
        ),
        locale,
      ).toEqual([]);
    }
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
