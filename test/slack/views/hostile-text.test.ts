/**
 * Every view builder, fed the most hostile text people or the Fleet API can send: long, with
 * mentions, disguised links, `&`, bidi overrides and zero-width characters. Whatever the input,
 * what Slack receives fits its limits, cannot ping or link, and shows no invisible character.
 */
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/fleet/schemas.js';
import { PAYOUT_EVENT_NAMES, PAYOUT_STATES, type PayoutEvent, type PayoutRequest } from '../../../src/payouts/index.js';
import { PAYOUT_VIEWS, PROFILE } from '../../../src/slack/ids.js';
import { notice, noticeModal } from '../../../src/slack/views/notice.js';
import { buildBalanceMessage } from '../../../src/slack/views/balance.js';
import { buildFeedFallbackText, buildFeedMessage } from '../../../src/slack/views/feed.js';
import { buildFeedStatusMessage } from '../../../src/slack/views/feed-status.js';
import { buildHelpMessage } from '../../../src/slack/views/help.js';
import { approvalOutcome, buildApprovalMessage, buildApproveModal, buildRejectModal } from '../../../src/slack/views/payout-approval.js';
import { buildPayoutChooser, buildPayoutForm, buildPayoutReview, buildPayoutSubmitted } from '../../../src/slack/views/payout-form.js';
import { buildPayoutHistory, buildPayoutList } from '../../../src/slack/views/payout-history.js';
import { buildRequesterUpdate } from '../../../src/slack/views/payout-updates.js';
import { buildTransactionsMessage } from '../../../src/slack/views/transactions.js';
import { buildProfileModal, newDraft } from '../../../src/slack/views/import-profile.js';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { pendingRequest } from '../../support/payout-doubles.js';

const SEED = '<!channel> <http://x|y> <@U0BOSS> & \u202Eevil\u202C \u2066i\u2069 \u200Bz\u200D\uFEFF\u2060\u200E\u200F\u061C \u0007\u001b ';
const HOSTILE = SEED.repeat(Math.ceil(5000 / SEED.length)).slice(0, 5000);
const SHORT = SEED;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;
const at = new Date('2026-11-21T10:00:00.000Z');
const surfaces = [
  { sandbox: false, locale: 'en' as const },
  { sandbox: true, locale: 'en' as const },
  { sandbox: true, locale: 'fr' as const },
];

function tx(index: number, text: string): Transaction {
  return { reference: text, type: text, amount: index % 2 ? 150.5 : -20, currency: 'USD', description: text, date: at.toISOString(), status: text };
}

function hostileRequest(overrides: Record<string, unknown> = {}): PayoutRequest {
  return pendingRequest({
    recipient: { phone: HOSTILE, name: HOSTILE, countryCode: HOSTILE },
    operator: HOSTILE,
    reference: HOSTILE,
    note: HOSTILE,
    failureReason: HOSTILE,
    rejectReason: HOSTILE,
    transactionId: HOSTILE,
    rejectedBy: 'U0APPROVER',
    approvals: [{ userId: 'U0APPROVER', at }],
    requiredApprovals: 2,
    ...overrides,
  });
}

type Built =
  | { kind: 'message'; name: string; value: { text: string; blocks: unknown[] } }
  | { kind: 'view'; name: string; value: Record<string, unknown> }
  | { kind: 'text'; name: string; value: string };

function everything(): Built[] {
  const built: Built[] = [];
  const message = (name: string, value: { text: string; blocks: unknown[] } | undefined) => {
    if (value) built.push({ kind: 'message', name, value });
  };
  const view = (name: string, value: object) => built.push({ kind: 'view', name, value: value as Record<string, unknown> });
  for (const surface of surfaces) {
    for (const text of [HOSTILE, SHORT]) {
      message('balance', buildBalanceMessage(surface, { balances: { [text]: 1, USD: 2 }, readAt: at }));
      message(
        'transactions',
        buildTransactionsMessage(surface, {
          page: 1,
          pageSize: 25,
          firstItem: 1,
          transactions: Array.from({ length: 25 }, (_, i) => tx(i, text)),
          hasNext: true,
          readAt: at,
        }),
      );
      message('help', buildHelpMessage(surface, [{ usage: '/fleet balance', description: 'The balance.' }], text));
      for (const named of [true, false]) {
        const columns = named ? [text, 'Date', text] : ['1', '2', '3'];
        view(
          'import profile',
          buildProfileModal(surface, {
            fileName: text,
            sample: { columns, named, firstLines: [text, text], firstRows: [[text, `03/04/2026${text}`, text]] },
            draft: { ...newDraft(text), name: text, date: 2, amountLayout: 'flagged', inWords: [text], currencyKind: 'fixed', currency: text },
            errors: { [PROFILE.blocks.reference]: text, elsewhere: text },
            privateMetadata: '{}',
            timeZones: [text, 'UTC'],
            currencies: [text, 'USD'],
          }),
        );
      }
      message('notice', notice(surface, text));
      view('chooser', buildPayoutChooser(surface, text));
      view(
        'form',
        buildPayoutForm(
          surface,
          'mobile_money',
          { operators: ['<!channel> \u202E\u200B'], currencies: ['USD'] },
          { name: text, note: text, phone: text, operator: text },
          [text, text],
        ),
      );
      view(
        'bank form',
        buildPayoutForm(surface, 'bank_account', { operators: [], currencies: ['USD'] }, { name: text, accountNumber: text, bankCode: text }, [text]),
      );
      view('payout notice', noticeModal(surface, { title: text, text, callbackId: PAYOUT_VIEWS.notice }));
      const feedEntries = Array.from({ length: 20 }, (_, i) => ({ ...tx(i, text), currency: i % 3 ? 'USD' : text }));
      message('feed', buildFeedMessage(surface, { kind: 'transactions', entries: feedEntries, notes: [{ kind: 'overflow', count: 3, atLeast: true }] }));
      built.push({ kind: 'text', name: 'feed fallback', value: buildFeedFallbackText(surface, { kind: 'transactions', entries: feedEntries, notes: [] }) });
      message(
        'feed status',
        buildFeedStatusMessage(
          surface,
          {
            channelId: 'C0FEED',
            pollIntervalSeconds: 15,
            started: true,
            lastSuccessfulPollAt: at,
            newestPosted: { reference: text, date: at, postedAt: at },
            behindMs: 0,
            pendingEntries: 3,
            lateEntries: 2,
            gapEntries: 0,
            futureDatedEntries: 1,
            unreadableEntries: 4,
            lastError: { code: text, at },
          },
          at,
        ),
      );
    }
    for (const kind of ['mobile_money', 'bank_account'] as const) {
      const base = hostileRequest(
        kind === 'bank_account' ? { kind, recipient: { accountNumber: HOSTILE, bankCode: HOSTILE, name: HOSTILE, countryCode: HOSTILE } } : {},
      );
      for (const state of PAYOUT_STATES) {
        for (const needsReview of [false, true]) {
          const request: PayoutRequest = { ...base, state, needsReview, attempts: needsReview ? 2 : 1 };
          const label = `${kind} ${state}${needsReview ? ' (needs review)' : ''}`;
          message(`approval message, ${label}`, buildApprovalMessage(surface, request));
          view(`approve modal, ${label}`, buildApproveModal(surface, request));
          view(`reject modal, ${label}`, buildRejectModal(surface, request));
          view(`review, ${label}`, buildPayoutReview(surface, request, 'C0APPROVALS'));
          view(`submitted, ${label}`, buildPayoutSubmitted(surface, request, 'C0APPROVALS'));
          message(
            `list, ${label}`,
            buildPayoutList(
              surface,
              Array.from({ length: 15 }, () => request),
            ),
          );
          const events: PayoutEvent[] = PAYOUT_EVENT_NAMES.map((event, index) => ({
            id: index,
            requestId: request.id,
            event,
            userId: 'U0APPROVER',
            at,
            details: { reason: HOSTILE, transactionId: HOSTILE, attempt: HOSTILE },
          }));
          message(`history, ${label}`, buildPayoutHistory(surface, request, [...events, ...events, ...events]));
          for (const event of PAYOUT_EVENT_NAMES)
            message(`requester update ${event}, ${label}`, buildRequesterUpdate(surface, request, event, 'U0APPROVER', 'C0APPROVALS'));
          const outcome = approvalOutcome({ ok: true, request }, 'U0APPROVER');
          built.push({ kind: 'text', name: `approval outcome, ${label}`, value: outcome.text });
          view(`approval outcome notice, ${label}`, noticeModal(surface, { title: outcome.title, text: outcome.text, callbackId: PAYOUT_VIEWS.notice }));
        }
      }
    }
    const refused = approvalOutcome({ ok: false, code: 'could_not_check', details: { searchProblem: HOSTILE } }, 'U0APPROVER');
    view('refused approval notice', noticeModal(surface, { title: refused.title, text: refused.text, callbackId: PAYOUT_VIEWS.notice }));
  }
  return built;
}

interface Shown {
  text: string;
  /** mrkdwn can ping and link; plain_text shows `<!channel>` as it is written. */
  mrkdwn: boolean;
}

/** The text a reader sees: every text object, button and option labels, not input values or metadata. */
function shownTexts(value: unknown, out: Shown[] = []): Shown[] {
  if (Array.isArray(value)) value.forEach((item) => shownTexts(item, out));
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(record)) {
      if (key === 'private_metadata' || key === 'initial_value' || key === 'value') continue;
      if (key === 'text' && typeof child === 'string') out.push({ text: child, mrkdwn: record.type !== 'plain_text' });
      else shownTexts(child, out);
    }
  }
  return out;
}

function shownIn(item: Built): Shown[] {
  if (item.kind === 'text') return [{ text: item.value, mrkdwn: true }];
  if (item.kind === 'message') return [{ text: item.value.text, mrkdwn: true }, ...shownTexts(item.value.blocks)];
  return shownTexts(item.value);
}

const MRKDWN_HAZARDS = ['<!channel>', '<http://x', '<@U0BOSS>'];
// These take mrkdwn the app composed (callers escape what they quote): only their limits are checked here.
const COMPOSED = new Set(['notice', 'payout notice']);

describe('every view builder with hostile text', () => {
  const built = everything();

  it('builds something for every surface', () => {
    expect(built.length).toBeGreaterThan(500);
  });

  it('stays within Block Kit limits', () => {
    const problems = built.flatMap((item) => {
      if (item.kind === 'message') return checkMessage(item.value.blocks, item.value.text).map((line) => `${item.name}: ${line}`);
      if (item.kind === 'view') return checkView(item.value).map((line) => `${item.name}: ${line}`);
      return item.value.length > 40_000 ? [`${item.name}: ${item.value.length} chars`] : [];
    });
    expect(problems).toEqual([]);
  });

  it('can never ping, link or mention', () => {
    const problems = built.flatMap((item) => {
      if (COMPOSED.has(item.name)) return [];
      return shownIn(item)
        .filter((shown) => shown.mrkdwn)
        .flatMap(({ text }) => MRKDWN_HAZARDS.filter((hazard) => text.includes(hazard)).map((hazard) => `${item.name}: ${hazard}`));
    });
    expect([...new Set(problems)]).toEqual([]);
  });

  it('never shows a bidi override, zero-width or control character', () => {
    const problems = built.flatMap((item) => {
      if (COMPOSED.has(item.name)) return [];
      return shownIn(item)
        .filter(({ text }) => INVISIBLE.test(text))
        .map(() => item.name);
    });
    expect([...new Set(problems)]).toEqual([]);
  });

  it("keeps the review modal's private_metadata within 3,000 characters whatever the draft holds", () => {
    for (const note of ['\u0001'.repeat(500), '"'.repeat(2000), '\uD800'.repeat(500), HOSTILE]) {
      const review = buildPayoutReview(
        { sandbox: false, locale: 'en' as const },
        hostileRequest({ note, recipient: { phone: '243812345678', name: note, countryCode: 'CD' } }),
        'C0APPROVALS',
      );
      expect((review.private_metadata ?? '').length).toBeLessThanOrEqual(3000);
    }
  });
});
