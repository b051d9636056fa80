/**
 * The runway in words: the `/fleet runway` reply, and the one line per currency the Home, the digest
 * and the alert reuse. Amounts and days are written the reader's way (`surface.locale`).
 */
import type { KnownBlock } from '@slack/types';
import { textsFor, type Locale, type Texts } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import type { CurrencyRunway, Runway, RunwayAlert } from '../../runway/index.js';
import type { Reply } from './notice.js';
import { notice } from './notice.js';
import { formatDay, slackDate } from './dates.js';
import { cutMrkdwn, escapeWithin, footer, plainText, sandboxFooter, sandboxMarked, type Surface } from './text.js';

const CURRENCY_MAX = 12;
const SECTION_MAX = 3000;
/** Currencies to a section, and sections at most: 40 currencies stay well within a message's 50 blocks. */
const LINES_PER_SECTION = 10;
const MAX_SECTIONS = 4;

// Amounts end with the currency code the API sent, unchecked: escaped and cut like the code itself.
const AMOUNT_MAX = 60;
function amountsOf(currency: CurrencyRunway, locale: Locale): { balance: string; net: string } {
  return {
    balance: escapeWithin(formatMinor(currency.balanceMinor, currency.currency, { locale }), AMOUNT_MAX, { oneLine: true }),
    net: escapeWithin(formatMinor(Math.round(currency.averageDailyNetMinor), currency.currency, { locale, signed: true }), AMOUNT_MAX, { oneLine: true }),
  };
}

/** `*USD* 3,000.00 USD · -200.00 USD a day · *15 days left*, zero on Dec 11, 2026`. */
export function runwayLine(t: Texts, currency: CurrencyRunway, locale: Locale): string {
  const code = escapeWithin(currency.currency, CURRENCY_MAX, { oneLine: true });
  const { balance, net } = amountsOf(currency, locale);
  if (currency.daysLeft === undefined || currency.zeroDay === undefined) return t('runway.notFalling', { currency: code, balance, net });
  return t('runway.falling', { currency: code, balance, net, count: Math.floor(currency.daysLeft), date: formatDay(currency.zeroDay, locale) });
}

/** Why there is no figure, or how many days it was read over when fewer than the window: the line under the figures. */
export function runwayContext(t: Texts, runway: Runway, locale: Locale): string {
  if (!runway.known) return t(`runway.gap.${runway.reason}`);
  const window = t('runway.window', {
    count: runway.daysRead,
    from: formatDay(runway.firstDay, locale),
    to: formatDay(runway.lastDay, locale),
    zone: escapeWithin(runway.timeZone, 60, { oneLine: true }),
  });
  return runway.daysRead < runway.windowDays ? `${window} ${t('runway.short', { count: runway.daysRead, window: runway.windowDays })}` : window;
}

/** The runway as one mrkdwn text (the Home's block, the digest's section): a title, a line per currency (the first `maxLines`), the window or why there is no figure. */
export function runwaySummary(surface: Surface, runway: Runway, maxLines: number): string {
  const t = textsFor(surface.locale);
  const lines = runway.known ? runway.currencies.slice(0, maxLines).map((currency) => runwayLine(t, currency, surface.locale)) : [];
  const hidden = runway.known ? runway.currencies.length - lines.length : 0;
  if (hidden > 0) lines.push(t('runway.moreCurrencies', { count: hidden }));
  return [`*${t('runway.section')}*`, ...lines, `_${runwayContext(t, runway, surface.locale)}_`].join('\n');
}

/** The `/fleet runway` reply; `chartInDm` when the chart follows in the person's DM with the app, which it then says. */
export function buildRunwayMessage(surface: Surface, runway: Runway, options: { chartInDm?: boolean } = {}): Reply {
  const t = textsFor(surface.locale);
  const title = t('runway.title');
  if (!runway.known) return notice(surface, runwayContext(t, runway, surface.locale));
  const lines = runway.currencies.map((currency) => runwayLine(t, currency, surface.locale));
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(title, 150) }];
  if (lines.length === 0) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('runway.none') } });
  for (let start = 0; start < lines.length && start < LINES_PER_SECTION * MAX_SECTIONS; start += LINES_PER_SECTION) {
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(lines.slice(start, start + LINES_PER_SECTION).join('\n'), SECTION_MAX) } });
  }
  const hidden = lines.length - LINES_PER_SECTION * MAX_SECTIONS;
  if (hidden > 0) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: t('runway.moreCurrencies', { count: hidden }) } });
  if (options.chartInDm && lines.length > 0)
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `:chart_with_downwards_trend: ${t('runway.chart.toDm')}` }] });
  blocks.push(footer(surface, runwayContext(t, runway, surface.locale), t('runway.readAt', { date: slackDate(runway.readAt, undefined, surface) })));
  const text = t('runway.fallback', { title: sandboxMarked(surface, title), lines: lines.join('; ') || t('runway.none') });
  return { text: cutMrkdwn(text, SECTION_MAX), blocks };
}

/** The runway alert in the alert channel, in the channel's language. */
export function buildRunwayAlertMessage(surface: Surface, alert: RunwayAlert): Reply {
  const t = textsFor(surface.locale);
  const { currency, alertDays } = alert;
  const locale = surface.locale;
  const code = escapeWithin(currency.currency, CURRENCY_MAX, { oneLine: true });
  let text: string;
  if (alert.kind === 'runway_low') {
    text = t('runway.alert.low', {
      currency: code,
      count: Math.floor(currency.daysLeft ?? 0),
      threshold: alertDays,
      ...amountsOf(currency, locale),
      date: currency.zeroDay === undefined ? '—' : formatDay(currency.zeroDay, locale),
    });
  } else {
    const state =
      currency.daysLeft === undefined ? t('runway.alert.recoveredRising') : t('runway.alert.recoveredDays', { count: Math.floor(currency.daysLeft) });
    text = t('runway.alert.recovered', { currency: code, threshold: alertDays, state });
  }
  return {
    text: sandboxMarked(surface, text),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, SECTION_MAX) } }, ...sandboxFooter(surface)],
  };
}
