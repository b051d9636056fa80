/**
 * The daily digest as a Slack message: the same builder for the channel post (in the channel's
 * language) and for `/fleet digest` (in the asker's). Within Block Kit's limits whatever the day
 * holds: one section per currency up to a cap, every text from the API escaped and cut.
 */
import type { KnownBlock } from '@slack/types';
import type { CurrencyDay, DailyDigest, DigestMovement, PayoutOutcomeTotal } from '../../digest/index.js';
import { textsFor, type Texts } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import { notice, type Reply } from './notice.js';
import { runwaySummary } from './runway.js';
import { codeSpan, cutMrkdwn, escapeWithin, footer, mentionUser, plainText, sandboxMarked, type Surface } from './text.js';
import { slackDate, formatDay } from './dates.js';

const SECTION_MAX = 3000;
/** A currency's section is cut shorter than a section may be, so that several fit the message. */
const CURRENCY_SECTION_MAX = 2000;
/** Slack refuses a message whose blocks hold much more text than this in all (`msg_blocks_too_long`). */
const MESSAGE_TEXT_BUDGET = 11_000;
const HEADER_MAX = 150;
/** Leaves room under Slack's 50 blocks for the header, notes, payouts, waiting list and footer. */
const MAX_CURRENCY_SECTIONS = 40;
/** Types listed by name in a currency's counts; the rest are counted. */
const MAX_TYPES_LISTED = 8;
const REFERENCE_MAX = 60;
const TYPE_MAX = 40;
const DESCRIPTION_MAX = 120;
/** The runway's lines in the digest, and its section's length: the currencies' sections need the rest of the budget. */
const RUNWAY_LINES = 10;
const RUNWAY_SECTION_MAX = 1500;

export interface DigestMessageOptions {
  /** The channel post when it comes after its time: when it was due. */
  lateDueAt?: Date;
}

/** The digest of one day; `surface.locale` decides the language and the way amounts are written. */
export function buildDigestMessage(surface: Surface, digest: DailyDigest, options: DigestMessageOptions = {}): Reply {
  const t = textsFor(surface.locale);
  const day = formatDay(digest.day, surface.locale, 'full');
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(t('digest.title', { day }), HEADER_MAX) },
    footer(surface, t('digest.daysIn', { zone: escapeWithin(digest.timeZone, 60, { oneLine: true }) })),
  ];
  if (options.lateDueAt) blocks.push(section(t('digest.late', { due: slackDate(options.lateDueAt, '{date_short_pretty} {time}', surface) })));

  if (digest.quiet) {
    blocks.push(section(t(digest.ledgerAvailable ? 'digest.quiet' : 'digest.quietNoLedger')));
    const closing = closingBalancesLine(t, digest, surface);
    if (closing) blocks.push(section(closing));
  } else {
    if (!digest.ledgerAvailable) blocks.push(section(t('digest.noLedger')));
    else if (digest.entryCount === 0) blocks.push(section(t('digest.noMovement')));
    const still = digest.currencies.filter((currency) => currency.countsByType.length === 0);
    const closing = closingBalancesLine(t, { ...digest, currencies: still }, surface);
    const after = [...(closing ? [section(closing)] : []), section(payoutsSection(t, digest.payouts, surface)), ...tail(t, digest, surface)];
    // Currencies fill what the rest leaves of the message's text budget; the others are counted.
    let room = MESSAGE_TEXT_BUDGET - textLength([...blocks, ...after]) - 200;
    const moved = digest.currencies.filter((currency) => currency.countsByType.length > 0);
    let shown = 0;
    for (const currency of moved.slice(0, MAX_CURRENCY_SECTIONS)) {
      const block = section(cutMrkdwn(currencySection(t, currency, surface), CURRENCY_SECTION_MAX));
      room -= textLength([block]);
      if (room < 0) break;
      blocks.push(block);
      shown += 1;
    }
    if (moved.length > shown) blocks.push(section(t('digest.moreCurrencies', { count: moved.length - shown })));
    blocks.push(...after);
    return { text: sandboxMarked(surface, t('digest.fallback', { day })), blocks };
  }
  blocks.push(...tail(t, digest, surface));
  return { text: sandboxMarked(surface, t('digest.fallback', { day })), blocks };
}

/** The answer `/fleet digest` gives at once, while the day's digest is built; the digest takes its place. */
export function buildDigestBuildingMessage(surface: Surface, day: string): Reply {
  return notice(surface, textsFor(surface.locale)('digest.building', { day: formatDay(day, surface.locale, 'full') }));
}

/** The waiting requests and the footer, which end every digest. */
function tail(t: Texts, digest: DailyDigest, surface: Surface): KnownBlock[] {
  return [
    ...(digest.runway ? [section(cutMrkdwn(runwaySummary(surface, digest.runway, RUNWAY_LINES), RUNWAY_SECTION_MAX))] : []),
    ...(digest.waitingTotal > 0 ? [section(waitingSection(t, digest, surface))] : []),
    ...(digest.scheduledToday
      ? [
          section(
            t('payoutSchedule.digest.total', {
              amounts: digest.scheduledToday.totals.map((total) => formatMinor(total.totalMinor, total.currency, { locale: surface.locale })).join(' · '),
            }),
          ),
        ]
      : []),
    footer(surface, t('digest.computedAt', { date: slackDate(digest.computedAt, undefined, surface) })),
  ];
}

function textLength(blocks: KnownBlock[]): number {
  return JSON.stringify(blocks).length;
}

function section(text: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, SECTION_MAX) } };
}

function currencySection(t: Texts, day: CurrencyDay, surface: Surface): string {
  const locale = surface.locale;
  const amount = (minor: number, signed = false) => formatMinor(minor, day.currency, { locale, signed });
  const count = day.countsByType.reduce((sum, type) => sum + type.count, 0);
  const listed = day.countsByType
    .slice(0, MAX_TYPES_LISTED)
    .map((type) => t('digest.typeCount', { type: escapeWithin(type.type, TYPE_MAX, { oneLine: true }), count: type.count }));
  const hidden = day.countsByType.length - listed.length;
  if (hidden > 0) listed.push(t('digest.moreTypes', { count: hidden }));
  const lines = [
    t('digest.currency', { currency: escapeWithin(day.currency, 10, { oneLine: true }) }),
    t('digest.inOut', { in: amount(day.inMinor, true), out: amount(-day.outMinor), net: amount(day.netMinor, true) }),
    t('digest.counts', { count, types: listed.join(', ') }),
  ];
  if (day.notCompleted > 0) lines.push(t('digest.notCompleted', { count: day.notCompleted }));
  lines.push(closingLine(t, day, surface));
  if (day.largest.length > 0) {
    lines.push(t('digest.largest'));
    for (const movement of day.largest) lines.push(movementLine(movement, day.currency, surface));
  }
  return lines.join('\n');
}

function movementLine(movement: DigestMovement, currency: string, surface: Surface): string {
  const description = movement.description.trim() === '' ? '' : ` — ${escapeWithin(movement.description, DESCRIPTION_MAX, { oneLine: true })}`;
  return (
    `• ${formatMinor(movement.amountMinor, currency, { locale: surface.locale, signed: true })} ${codeSpan(movement.reference, REFERENCE_MAX)} ` +
    `${escapeWithin(movement.type, TYPE_MAX, { oneLine: true })} ${slackDate(movement.date, '{time}', surface)}${description}`
  );
}

function closingLine(t: Texts, day: CurrencyDay, surface: Surface): string {
  const { closing } = day;
  if (!closing.known) return t('digest.closingUnknown', { reason: t(`digest.gap.${closing.reason}`) });
  const amount = formatMinor(closing.minor, day.currency, { locale: surface.locale });
  if (!closing.correction) return t('digest.closing', { amount });
  const previous = formatMinor(closing.correction.previousMinor, day.currency, { locale: surface.locale });
  return t('digest.closingCorrected', { amount, previous, count: closing.correction.lateEntries });
}

/** A closing balance in a list: its amount, and the figure it corrected. */
function closingAmount(t: Texts, day: CurrencyDay, surface: Surface): string | undefined {
  if (!day.closing.known) return undefined;
  const amount = formatMinor(day.closing.minor, day.currency, { locale: surface.locale });
  if (!day.closing.correction) return amount;
  return t('digest.correctedFrom', { amount, previous: formatMinor(day.closing.correction.previousMinor, day.currency, { locale: surface.locale }) });
}

/** The closing balances of currencies that did not move, on one line; the reason when none is known. */
function closingBalancesLine(t: Texts, digest: Pick<DailyDigest, 'currencies' | 'ledgerAvailable'>, surface: Surface): string | undefined {
  const known = digest.currencies.flatMap((day) => closingAmount(t, day, surface) ?? []);
  if (known.length > 0) return t('digest.closingBalances', { amounts: known.slice(0, 60).join(' · ') });
  const unknown = digest.currencies.find((day) => !day.closing.known);
  if (unknown && !unknown.closing.known && digest.ledgerAvailable) return t('digest.closingUnknown', { reason: t(`digest.gap.${unknown.closing.reason}`) });
  return undefined;
}

function payoutsSection(t: Texts, outcomes: PayoutOutcomeTotal[], surface: Surface): string {
  const lines = [t('digest.payoutsTitle')];
  const ended = outcomes.filter((outcome) => outcome.count > 0);
  if (ended.length === 0) lines.push(t('digest.noPayouts'));
  for (const outcome of ended) {
    const label = t(`digest.outcome.${outcome.outcome}`, { count: outcome.count });
    const totals = outcome.totals.map((total) => formatMinor(total.minor, total.currency, { locale: surface.locale })).join(' · ');
    lines.push(`• ${t('digest.outcomeTotals', { outcome: label, totals })}`);
  }
  if (outcomes.some((outcome) => outcome.outcome === 'sent' && outcome.count > 0)) lines.push(`_${t('digest.payoutsFlow')}_`);
  return lines.join('\n');
}

function waitingSection(t: Texts, digest: DailyDigest, surface: Surface): string {
  const lines = [t('digest.waitingTitle', { hours: digest.waitingAfterHours })];
  for (const request of digest.waiting) {
    lines.push(
      `• ${t('digest.waitingLine', {
        id: codeSpan(request.id, 20),
        amount: formatMinor(request.amountMinor, request.currency, { locale: surface.locale }),
        user: mentionUser(request.requestedBy),
        since: slackDate(request.requestedAt, '{date_short_pretty} {time}', surface),
      })}`,
    );
  }
  const more = digest.waitingTotal - digest.waiting.length;
  if (more > 0) lines.push(t('digest.waitingMore', { count: more }));
  return lines.join('\n');
}
