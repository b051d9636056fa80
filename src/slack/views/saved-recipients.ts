/**
 * Saved recipients in Slack: the `/fleet recipients` list with a Remove button per recipient, the
 * payout form's type-ahead select and the options it is answered with, and the form values a
 * picked recipient fills in.
 */
import type { KnownBlock, PlainTextOption, SectionBlock } from '@slack/types';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import { railOf, type PayoutFormFields, type SavedRecipient } from '../../payouts/index.js';
import { RECIPIENT_ACTIONS, RECIPIENT_BLOCKS } from '../ids.js';
import type { Reply } from './notice.js';
import { codeSpan, cutMrkdwn, escapeWithin, footer, plainText, plainWithin, type Surface } from './text.js';
import { slackDate, type DateReader } from './dates.js';
import { railWording } from './rail-wording.js';

const HEADER_MAX = 150;
const NAME_MAX = 200;
const NUMBER_MAX = 60;
// Slack's limits for an option: text of 75 characters, value of 150.
const OPTION_TEXT_MAX = 75;
const OPTION_VALUE_MAX = 150;

/** `/fleet recipients [words]`: the recipients found (last paid first, `total` in all), each removable by requesters. */
export function buildRecipientList(
  surface: Surface,
  recipients: readonly SavedRecipient[],
  search: { words: readonly string[]; total: number },
  options: { canRemove: boolean; notice?: string },
): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const blocks: KnownBlock[] = [];
  if (options.notice) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(options.notice, 3000) } });
  blocks.push({ type: 'header', text: plainText(t('recipients.title'), HEADER_MAX) });
  blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(countLine(t, recipients.length, search), 3000) } });
  for (const recipient of recipients) blocks.push(recipientSection(t, surface, recipient, options.canRemove));
  blocks.push(footer(surface, t('recipients.footer')));
  return { text: t('recipients.title'), blocks };
}

function countLine(t: Texts, shown: number, search: { words: readonly string[]; total: number }): string {
  const { total } = search;
  if (search.words.length === 0) {
    if (total === 0) return t('recipients.none');
    return total > shown ? t('recipients.more', { count: total, shown }) : t('recipients.count', { count: total });
  }
  const words = search.words.map((word) => codeSpan(word, 40)).join(' ');
  if (total === 0) return t('recipients.foundNone', { words });
  return total > shown ? t('recipients.foundMore', { count: total, shown, words }) : t('recipients.foundCount', { count: total, words });
}

function recipientSection(t: Texts, reader: DateReader, saved: SavedRecipient, canRemove: boolean): SectionBlock {
  const common = {
    name: escapeWithin(saved.recipient.name, NAME_MAX, { oneLine: true }),
    country: escapeWithin(saved.recipient.countryCode, 10, { oneLine: true }),
    date: slackDate(saved.lastPaidAt, '{date_short_pretty}', reader),
    id: codeSpan(saved.lastPayoutId, 20),
  };
  const text = railWording(saved.kind).savedLine(t, saved, common, {
    code: codeSpan,
    word: (value, max) => escapeWithin(value, max, { oneLine: true }),
    numberMax: NUMBER_MAX,
  });
  const section: SectionBlock = { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } };
  if (!canRemove) return section;
  return {
    ...section,
    accessory: {
      type: 'button',
      action_id: RECIPIENT_ACTIONS.remove,
      text: plainText(t('recipients.remove'), 75),
      value: saved.identity,
      style: 'danger',
      confirm: {
        title: plainText(t('recipients.confirm.title'), 100),
        text: { type: 'mrkdwn', text: cutMrkdwn(t('recipients.confirm.text', { name: common.name }), 300) },
        confirm: plainText(t('recipients.confirm.yes'), 30),
        deny: plainText(t('recipients.confirm.no'), 30),
        style: 'danger',
      },
    },
  };
}

/** What a person reads for a recipient in one line: its number, and the operator or bank. */
export function recipientNumber(saved: SavedRecipient): string {
  return railWording(saved.kind).savedNumber(saved);
}

/** The options of the form's select: plain text (never formatted), cut to Slack's limits; a recipient whose identity is too long for a value is left out. */
export function recipientOptions(recipients: readonly SavedRecipient[], locale: Locale): PlainTextOption[] {
  const t = textsFor(locale);
  return recipients
    .filter((saved) => saved.identity.length <= OPTION_VALUE_MAX)
    .map((saved) => ({
      text: plainText(plainWithin(railWording(saved.kind).savedOption(t, saved), OPTION_TEXT_MAX)),
      value: saved.identity,
    }));
}

/** The form's "Saved recipient" line: a type-ahead select whose options the app gives as the person types. */
export function savedRecipientBlock(t: Texts): SectionBlock {
  return {
    type: 'section',
    block_id: RECIPIENT_BLOCKS.pick,
    text: { type: 'mrkdwn', text: t('payoutRequest.savedRecipient.prompt') },
    accessory: {
      type: 'external_select',
      action_id: RECIPIENT_ACTIONS.pick,
      placeholder: plainText(t('payoutRequest.savedRecipient.placeholder'), 150),
      // Opening the menu lists the recipients paid last; typing narrows them.
      min_query_length: 0,
    },
  };
}

/** The form's values once a saved recipient is picked: its recipient fields over what was typed; amount, currency, reference and note stay. */
export function fillFromSaved(typed: PayoutFormFields, saved: SavedRecipient): PayoutFormFields {
  const kept: PayoutFormFields = { amount: typed.amount, currency: typed.currency, reference: typed.reference, note: typed.note };
  const { name, countryCode } = saved.recipient;
  return { ...kept, ...railOf(saved.kind).formValues(saved), name, countryCode };
}
