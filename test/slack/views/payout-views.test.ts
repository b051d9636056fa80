import { describe, expect, it } from 'vitest';
import { INTERRUPTED_FAILURE, PAYOUT_EVENT_NAMES, PAYOUT_STATES, type PayoutEvent, type PayoutRequest, type PayoutState } from '../../../src/payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_FIELD_BLOCKS, RECIPIENT_BLOCKS } from '../../../src/slack/ids.js';
import { approvalOutcome, buildApprovalMessage, buildApproveModal, buildRejectModal } from '../../../src/slack/views/payout-approval.js';
import { buildPayoutChooser, buildPayoutForm, buildPayoutReview, buildPayoutSubmitted } from '../../../src/slack/views/payout-form.js';
import { buildPayoutHistory, buildPayoutList } from '../../../src/slack/views/payout-history.js';
import { buildRequesterUpdate } from '../../../src/slack/views/payout-updates.js';
import { checkMessage, checkView } from '@fleet-treasury-bot/local-slack';
import { LOCALES } from '../../../src/i18n/index.js';
import { at, buttons, json, request, surface } from '../../support/payout-view-fixtures.js';

const choices = { operators: ['VODACOM_MPESA', 'ORANGE_MONEY'], currencies: ['USD', 'EUR', 'CDF'] };

describe('payout request modals', () => {
  it('lays out the mobile money form in order, prefilled, with the saved-recipient select then one block per field', () => {
    const view = buildPayoutForm(surface, 'mobile_money', choices, { phone: '243812345678', amount: '150', currency: 'usd' });
    const blockIds = view.blocks.map((block) => block.block_id).filter(Boolean);
    expect(blockIds[0]).toBe(RECIPIENT_BLOCKS.pick);
    expect(blockIds.slice(1, 9)).toEqual(
      ['phone', 'name', 'countryCode', 'operator', 'amount', 'currency', 'reference', 'note'].map(
        (f) => PAYOUT_FIELD_BLOCKS[f as keyof typeof PAYOUT_FIELD_BLOCKS],
      ),
    );
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
    // Sent choosers carry these ids: a click on one still opens its kind's form.
    expect([...json(view.blocks).matchAll(/"action_id":"([^"]+)"/g)].map((match) => match[1])).toEqual([
      'payout_choose_mobile_money',
      'payout_choose_bank_account',
    ]);
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

describe('requester messages and history', () => {
  it('says nothing when sending starts, and gives the reason of a rejection escaped', () => {
    expect(buildRequesterUpdate(surface, request({ state: 'executing' }), 'executing', 'U0APPROVER')).toBeUndefined();
    expect(buildRequesterUpdate(surface, request({ state: 'approved' }), 'approved', 'U0APPROVER')).toBeUndefined();
    const rejected = buildRequesterUpdate(
      surface,
      request({ state: 'rejected', rejectedBy: 'U0APPROVER', rejectReason: 'Wrong <@U0BOSS>' }),
      'rejected',
      'U0APPROVER',
    );
    expect(json(rejected?.blocks)).toContain('<@U0APPROVER> rejected your payout');
    expect(json(rejected?.blocks)).toContain('Wrong &lt;@U0BOSS&gt;');
  });

  it.each(LOCALES)('lists recent payouts and one history within Block Kit limits in %s', (locale) => {
    const reader = { sandbox: true, locale };
    const list = buildPayoutList(
      reader,
      Array.from({ length: 15 }, (_, index) => request({ id: `PR-AAAAA${index}`, recipient: { phone: '1', name: '<'.repeat(100), countryCode: 'CD' } })),
    );
    expect(checkMessage(list.blocks, list.text)).toEqual([]);
    const events: PayoutEvent[] = Array.from({ length: 60 }, (_, index) => ({
      id: index,
      requestId: 'PR-7K3F9Q',
      event: PAYOUT_EVENT_NAMES[index % PAYOUT_EVENT_NAMES.length]!,
      userId: 'U0APPROVER',
      at,
      details: { reason: '<'.repeat(500), transactionId: 'T'.repeat(300), approvals: 1, required: 2, attempt: 2 },
    }));
    const history = buildPayoutHistory(reader, request({ note: '&'.repeat(500) }), events);
    expect(json(history.blocks)).toContain(locale === 'fr' ? '25 derniers sur 60' : 'last 25 of 60');
    expect(checkMessage(history.blocks, history.text)).toEqual([]);
    for (const event of PAYOUT_EVENT_NAMES) {
      const update = buildRequesterUpdate(
        reader,
        request({ failureReason: 'f'.repeat(2000), rejectReason: '<'.repeat(500), transactionId: 'T'.repeat(300) }),
        event,
        'U0APPROVER',
        'C0APPROVALS',
      );
      if (update) expect(checkMessage(update.blocks, update.text), event).toEqual([]);
    }
  });
});

describe("a request a workflow made in the requester's name", () => {
  const through = { en: "Requested by a workflow in <@U0REQUESTER>'s name; they confirmed it", fr: 'Demandé par un workflow au nom de <@U0REQUESTER>' };

  it.each(LOCALES)('says so on the approval message, in the approve window and in its history, in %s', (locale) => {
    const reader = { sandbox: false, locale };
    const made = request({ requestedThrough: 'workflow' });
    expect(json(buildApprovalMessage(reader, made).blocks)).toContain(through[locale]);
    expect(json(buildApproveModal(reader, made).blocks)).toContain(through[locale]);
    const requested: PayoutEvent = { id: 1, requestId: made.id, event: 'requested', userId: 'U0REQUESTER', at, details: { through: 'workflow' } };
    expect(json(buildPayoutHistory(reader, made, [requested]).blocks)).toContain(
      locale === 'fr' ? 'par un workflow confirmé par le demandeur' : 'through a workflow they confirmed',
    );
  });

  it('says nothing of the kind for a request made in the app', () => {
    expect(json(buildApprovalMessage(surface, request()).blocks)).not.toContain('workflow');
    expect(json(buildApproveModal(surface, request()).blocks)).not.toContain('workflow');
  });
});

describe('text people or the Fleet API wrote', () => {
  const hostile = '<!channel> <http://evil.example|bank> <@U0BOSS> &';
  const typed = request({
    recipient: { phone: '243812345678', name: hostile, countryCode: 'CD' },
    note: hostile,
    rejectReason: hostile,
    failureReason: hostile,
    transactionId: hostile,
    rejectedBy: 'U0APPROVER',
    approvals: [{ userId: 'U0APPROVER', at }],
    retryApprovals: [{ userId: hostile, at }],
    likelyMatch: { id: 'a'.repeat(24), reference: hostile, date: hostile, amount: 1, currency: hostile, description: hostile, proposedAt: at },
  });
  const surfaces = (state: PayoutState, needsReview = false) =>
    LOCALES.flatMap((locale) => {
      const surface = { sandbox: false, locale };
      const shown: PayoutRequest = { ...typed, state, needsReview };
      const events: PayoutEvent[] = PAYOUT_EVENT_NAMES.map((event, index) => ({
        id: index,
        requestId: shown.id,
        event,
        userId: 'U0APPROVER',
        at,
        details: { reason: hostile, transactionId: hostile },
      }));
      return [
        buildApprovalMessage(surface, shown),
        buildApproveModal(surface, shown),
        buildRejectModal(surface, shown),
        buildPayoutReview(surface, shown, 'C0APPROVALS'),
        buildPayoutSubmitted(surface, shown, 'C0APPROVALS'),
        buildPayoutList(surface, [shown]),
        buildPayoutHistory(surface, shown, events),
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

describe("why the Fleet API failed a payout, in the reader's language", () => {
  const failed = (failureReason: string) => request({ state: 'failed', failureReason, approvals: [{ userId: 'U0APPROVER', at }] });
  const dm = (locale: 'en' | 'fr', shown: PayoutRequest) => json(buildRequesterUpdate({ sandbox: false, locale }, shown, 'failed', 'U0APPROVER')!.blocks);

  it('words a stored error code in each language', () => {
    expect(dm('en', failed('fleet:unavailable'))).toContain('failed: The Fleet API is unavailable right now.');
    expect(dm('fr', failed('fleet:unavailable'))).toContain('a échoué : L’API Fleet est indisponible pour le moment.');
  });

  it("quotes the API's own words of a refusal, escaped, inside the reader's sentence", () => {
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
    const events: PayoutEvent[] = [
      { id: 1, requestId: 'PR-7K3F9Q', event: 'failed', userId: undefined, at, details: { code: 'unavailable', reason: 'fleet:unavailable' } },
    ];
    expect(json(buildPayoutHistory({ sandbox: false, locale: 'fr' }, failed('fleet:unavailable'), events))).toContain('L’API Fleet est indisponible');
  });

  it("words a reason an older version stored as the client's English sentence in the reader's language, and shows any other sentence as it is", () => {
    expect(dm('fr', failed('The Fleet API refused the request (HTTP 400).'))).toContain('a échoué : L’API Fleet a refusé la demande.');
    expect(dm('fr', failed('Something only a person wrote.'))).toContain('a échoué : Something only a person wrote.');
  });
});

describe('the money flow, as the Fleet API spec describes it', () => {
  const flow =
    "Sending this payout debits the platform's wallet user and credits the fleet account with the amount above: the fleet account's USD balance goes up by that amount. The partner then credits its own customer, the recipient above.";
  const wrong = /from the fleet account|debits the fleet account|fleet account's \w+ balance goes down/i;

  it("is stated on the review screen, with the effect on the fleet account's balance", () => {
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

  it("follows the Amount field that names the payout's own amount, and names its currency", () => {
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
    const match = buildApprovalMessage(
      fr,
      request({
        state: 'unknown',
        needsReview: true,
        likelyMatch: {
          id: 'a'.repeat(24),
          reference: 'FLT-1',
          date: at.toISOString(),
          amount: 1500.5,
          currency: 'USD',
          description: 'Virement INV-2025-0042',
          proposedAt: at,
        },
      }),
    );
    expect(json(match.blocks)).toContain(`*Transaction* \`FLT-1\``);
    expect(json(match.blocks)).toContain(`*1${thin}500,50 USD*`);
    const shown = [...texts(pending.blocks), ...texts(review.blocks), ...texts(match.blocks)];
    for (const label of [
      'Approuver',
      'Rejeter',
      'Annuler la demande',
      'Renvoyer avec la même référence',
      'Confirmer l’envoi',
      'Pas celle-ci',
      'Renvoyer ce paiement ?',
      'Est-ce bien ce paiement ?',
    ]) {
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

  it("tells the approver their approval's outcome, and a refusal, in French", () => {
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
    expect(json(buildApprovalMessage(fr, byTotal).blocks)).toContain(
      `Nécessite 2 approbateurs : le total du jour de l’équipe du demandeur en USD, 5${thin}000,00 USD, dépasse 1${thin}000,00 USD.`,
    );
  });

  it('sends the requester their messages in French', () => {
    const sent = buildRequesterUpdate(fr, request({ state: 'completed', transactionId: 'PO-ABC' }), 'completed', 'U0APPROVER');
    expect(json(sent?.blocks)).toContain(`:white_check_mark: Votre paiement *PR-7K3F9Q* (*1${thin}500,50 USD* par mobile money à *`);
    expect(json(sent?.blocks)).toContain('a été envoyé. Transaction `PO-ABC`.');
    expect(sent?.text).toMatch(/: envoyé \(transaction PO-ABC\)$/);
    const rejected = buildRequesterUpdate(
      fr,
      request({ state: 'rejected', rejectedBy: 'U0APPROVER', rejectReason: 'Mauvais numéro' }),
      'rejected',
      'U0APPROVER',
    );
    expect(json(rejected?.blocks)).toContain('<@U0APPROVER> a rejeté votre paiement *PR-7K3F9Q*');
    expect(json(rejected?.blocks)).toContain(': Mauvais numéro');
  });

  it("words the app's own reason for an unknown outcome in the reader's language, and the Fleet API's as it said it", () => {
    const interrupted = request({ state: 'unknown', failureReason: INTERRUPTED_FAILURE });
    expect(json(buildApprovalMessage(fr, interrupted).blocks)).toContain('*Résultat inconnu :* L’application s’est arrêtée pendant l’envoi de ce paiement');
    expect(json(buildApprovalMessage(surface, interrupted).blocks)).toContain('*Outcome unknown:* The app stopped while sending this payout');
    const timedOut = request({ state: 'unknown', failureReason: 'The Fleet API took too long to answer <b>.' });
    expect(json(buildRequesterUpdate(fr, timedOut, 'unknown', undefined)?.blocks)).toContain('(The Fleet API took too long to answer &lt;b&gt;.)');
  });

  it('repeats the details on the French review screen the French way, the amount once', () => {
    const review = json(
      buildPayoutReview(fr, request(), 'C0APPROVALS', { required: 2, reason: { rule: 'amount', totalMinor: 150_050, thresholdMinor: 100_000 } }).blocks,
    );
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
