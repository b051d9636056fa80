import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blockText, CHANNELS, PEOPLE, startHarness, type Harness } from '../../support/bot-harness.js';
import {
  approveAs,
  clickOnApproval,
  dmTexts,
  MOBILE_FIELDS,
  MOBILE_PATH,
  openApproveModal,
  PAYOUT_ACTIONS,
  PAYOUT_ENV,
  privateNotes,
  requestPayout,
  viewText,
  waitForApprovalMessage,
} from '../../support/payout-flow.js';

// The narrow no-break space French puts between thousands.
const thin = '\u202f';

/** An approver whose Slack runs in French (`fr-FR`) in the local workspace. */
const FABRICE = 'U0FABRICE';

describe("payout approval in each reader's language, through the real receiver", () => {
  let h: Harness;

  beforeAll(async () => {
    // Fabrice reads French from his Slack; the requester chooses French; the channel reads English (CHANNEL_LOCALE).
    h = await startHarness({ env: { ...PAYOUT_ENV, FLEET_APPROVERS: `${PAYOUT_ENV.FLEET_APPROVERS},${FABRICE}` } });
    const before = h.visibleTo(PEOPLE.requester).length;
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'language fr' });
    await h.slack.waitFor(() => h.visibleTo(PEOPLE.requester)[before], { message: 'the answer to /fleet language fr' });
  });
  afterAll(async () => h?.close());
  afterEach(() => {
    expect(h.slack.limitViolations).toEqual([]);
  });

  it('opens the approve modal in French for a French approver, the amount written the French way, while the channel message stays English', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '1500.50', reference: 'INV-FR-0001' });
    const message = await waitForApprovalMessage(h, id, 'Waiting for approval');
    expect(blockText(message)).toContain(`<@${PEOPLE.requester}> asks to send *1,500.50 USD* by mobile money`);

    const modal = await openApproveModal(h, FABRICE, id);
    expect(modal.view.title).toMatchObject({ text: `Approuver ${id}` });
    expect(modal.view.submit).toMatchObject({ text: 'Approuver' });
    const shown = viewText(modal);
    expect(shown).toContain(`<@${PEOPLE.requester}> demande l’envoi de *1${thin}500,50 USD* par mobile money à *Amani Kabila*`);
    expect(shown).toContain(`*Montant*\\n*1${thin}500,50 USD*`);
    expect(shown).toContain('VODACOM_MPESA');
    expect(shown).toContain('Nécessite 2 approbateurs');
    expect(shown).not.toContain('1,500.50');

    await h.slack.submitView({ userId: FABRICE, viewId: modal.id });
    const outcome = await h.slack.waitFor(
      () => {
        const view = h.slack.view(modal.id);
        return view && viewText(view).includes('Votre approbation est enregistrée') ? view : undefined;
      },
      { message: 'the outcome of the approval, in French' },
    );
    expect(outcome.view.title).toMatchObject({ text: `Paiement ${id}` });
    expect(viewText(outcome)).toContain('Un autre approbateur doit encore approuver avant tout envoi.');

    // The channel reads CHANNEL_LOCALE, whoever acted.
    const approved = await waitForApprovalMessage(h, id, `Approved by <@${FABRICE}>`);
    expect(blockText(approved)).toContain('*Approvals* (1 of 2)');
    expect(h.sandbox.payouts()).toHaveLength(0);
  });

  it("writes the requester's direct messages in the requester's language, and the channel's message in the channel's", async () => {
    // In euros: the first test's dollars would make this one need two approvers (the requester's day total).
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '150', currency: 'EUR', reference: 'INV-FR-0002' });
    await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('attend une approbation')), {
      message: 'the French receipt',
    });
    const receipt = dmTexts(h, PEOPLE.requester).find((text) => text.includes(id))!;
    expect(receipt).toContain(
      `Votre demande de paiement *${id}* (*150,00 EUR* par mobile money à *Amani Kabila*) attend une approbation dans <#${CHANNELS.approvals}>`,
    );
    expect(receipt).not.toContain('waiting for approval');

    // An English approver: their modal is English, the payout goes out, and the requester hears it in French.
    const modal = await openApproveModal(h, PEOPLE.approver2, id);
    expect(modal.view.title).toMatchObject({ text: `Approve ${id}` });
    expect(viewText(modal)).toContain('*150.00 EUR*');
    await h.slack.submitView({ userId: PEOPLE.approver2, viewId: modal.id });
    const outcome = await h.slack.waitFor(
      () => {
        const view = h.slack.view(modal.id);
        return view && !viewText(view).includes('Recording your approval') ? viewText(view) : undefined;
      },
      { message: 'the outcome of the approval', timeoutMs: 10_000 },
    );
    expect(outcome).toContain('Your approval is recorded.\\n:white_check_mark: *Sent.* Transaction');
    const done = await waitForApprovalMessage(h, id, '*Sent.* Transaction');
    expect(blockText(done)).toContain(`Approved by <@${PEOPLE.approver2}>`);
    expect(blockText(done)).not.toMatch(/Envoyé|Approuvé/);
    const sentDm = await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('a été envoyé')), {
      message: 'the French message that the payout was sent',
    });
    expect(sentDm).toContain(`:white_check_mark: Votre paiement *${id}* (*150,00 EUR* par mobile money à *Amani Kabila*) a été envoyé. Transaction`);
  });

  it('tells a refusal only to the person who tried, in their language', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '20', reference: 'INV-FR-0003' });
    // The requester is not an approver: refused in French, in the channel only they can see.
    await clickOnApproval(h, PEOPLE.requester, id, PAYOUT_ACTIONS.approve);
    const note = await h.slack.waitFor(() => privateNotes(h, PEOPLE.requester).find((text) => text.includes('approuver des paiements')), {
      message: 'the French refusal',
    });
    expect(note).toContain('Vous ne figurez pas sur la liste des personnes autorisées à approuver des paiements.');
    // An approver who is not the requester may not cancel it: refused in English for an English reader.
    await clickOnApproval(h, PEOPLE.approver2, id, PAYOUT_ACTIONS.cancel);
    await h.slack.waitFor(() => privateNotes(h, PEOPLE.approver2).find((text) => text.includes('Only the person who requested this payout can cancel it.')), {
      message: 'the English refusal',
    });
  });

  it('tells a French requester in French why the Fleet API gave no clear answer, and the channel in English', async () => {
    const id = await requestPayout(h, 'mobile', { ...MOBILE_FIELDS, amount: '25', currency: 'EUR', reference: 'INV-FR-0004' });
    h.sandbox.setFault({ match: { method: 'POST', path: MOBILE_PATH }, status: 503, times: 1 });
    await approveAs(h, PEOPLE.approver2, id);
    const unknown = await waitForApprovalMessage(h, id, 'Outcome unknown');
    expect(blockText(unknown)).toContain('The Fleet API is unavailable right now.');
    const dm = await h.slack.waitFor(() => dmTexts(h, PEOPLE.requester).find((text) => text.includes(id) && text.includes('L’API Fleet est indisponible')), {
      message: 'the French reason in the direct message',
    });
    expect(dm).not.toContain('The Fleet API');
  });

  it('lists /fleet payouts for a French requester with every amount written the French way', async () => {
    const before = h.visibleTo(PEOPLE.requester).length;
    await h.slack.runCommand({ userId: PEOPLE.requester, channelId: CHANNELS.treasury, text: 'paiements' });
    const list = await h.slack.waitFor(
      () =>
        h
          .visibleTo(PEOPLE.requester)
          .slice(before)
          .find((message) => message.text.includes('Paiements récents')),
      {
        message: 'the French list of payouts',
      },
    );
    const text = blockText(list);
    expect(text).toContain(`*1${thin}500,50 USD* par mobile money à *Amani Kabila*`);
    expect(text).toContain('*150,00 EUR* par mobile money');
    expect(text).not.toMatch(/\d,\d{3}\.\d\d|\d\.\d\d [A-Z]{3}/);
  });
});
