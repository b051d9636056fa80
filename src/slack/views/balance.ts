/** The `/fleet balance` reply: every currency the API returns, when it was read, Refresh and Share. */
import type { KnownBlock, SectionBlock } from '@slack/types';
import type { BalanceReading } from '../../account/account-reader.js';
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatAmount } from '../../core/money.js';
import { ACTIONS, BLOCKS } from '../ids.js';
import type { Reply } from './notice.js';
import { escapeWithin, footer, mentionUser, sandboxMarked, type Surface } from './text.js';
import { slackDate } from './dates.js';

export interface BalanceMessageOptions {
  /** Set when the message is shared in the channel: no buttons, and who shared it. */
  sharedBy?: string;
  /** The Share button's value: these figures, sealed, so that Share posts exactly them. No Share button without it. */
  shareValue?: string;
}

// Currency codes come from the API unchecked: each shown one is cut, so a long one cannot break the message.
const CURRENCY_MAX = 12;
const AMOUNT_MAX = 60;
const currencyText = (currency: string) => escapeWithin(currency, CURRENCY_MAX, { oneLine: true });
const amountText = (amount: number, currency: string, locale: Locale) =>
  escapeWithin(formatAmount(amount, currency, { locale }), AMOUNT_MAX, { oneLine: true });

/** The amounts, ten currencies to a section (a section holds at most 10 fields); with `maxSections`, the first ones only. */
export function balanceSections(reading: BalanceReading, locale: Locale, maxSections = Infinity): SectionBlock[] {
  const currencies = Object.keys(reading.balances).sort();
  const sections: SectionBlock[] = [];
  for (let start = 0; start < currencies.length && sections.length < maxSections; start += 10) {
    const fields = currencies.slice(start, start + 10).map((currency) => ({
      type: 'mrkdwn' as const,
      text: `*${currencyText(currency)}*\n${amountText(reading.balances[currency] ?? 0, currency, locale)}`,
    }));
    sections.push({ type: 'section', fields });
  }
  return sections;
}

export function buildBalanceMessage(surface: Surface, reading: BalanceReading, options: BalanceMessageOptions = {}): Reply {
  const t = textsFor(surface.locale);
  const title = t('balance.title');
  const currencies = Object.keys(reading.balances).sort();
  const amountOf = (currency: string) => amountText(reading.balances[currency] ?? 0, currency, surface.locale);
  const lines = currencies.map((currency) => t('balance.line', { currency: currencyText(currency), amount: amountOf(currency) }));
  const blocks: KnownBlock[] = [{ type: 'header', text: { type: 'plain_text', text: title } }];
  if (currencies.length === 0) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('balance.none') } });
  }
  blocks.push(...balanceSections(reading, surface.locale));
  const readAt = t('balance.readAt', { date: slackDate(reading.readAt, undefined, surface) });
  blocks.push(footer(surface, options.sharedBy ? t('balance.sharedBy', { when: readAt, user: mentionUser(options.sharedBy) }) : readAt));
  if (!options.sharedBy) {
    blocks.push({
      type: 'actions',
      block_id: BLOCKS.accountActions,
      elements: [
        { type: 'button', action_id: ACTIONS.balanceRefresh, text: { type: 'plain_text', text: t('balance.refresh') }, value: 'refresh' },
        ...(options.shareValue === undefined
          ? []
          : [
              {
                type: 'button' as const,
                action_id: ACTIONS.balanceShare,
                text: { type: 'plain_text' as const, text: t('balance.share') },
                value: options.shareValue,
              },
            ]),
      ],
    });
  }
  const marked = sandboxMarked(surface, title);
  const text = lines.length > 0 ? t('balance.text', { title: marked, lines: lines.join(', ') }) : t('balance.textNone', { title: marked });
  return { text, blocks };
}
