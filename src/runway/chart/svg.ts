/**
 * The runway chart as SVG: one panel per currency, its closing balance over the window (solid) and
 * where it goes at this pace from the balance now (dashed), down to zero when it falls. Built as
 * text here, rasterised to PNG in a worker (`renderer.ts`) with the shipped font, so the picture is
 * the same on every machine. Currency codes come from the API: every text is XML-escaped.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatDistinctCompact, fromMinor } from '../../core/money.js';
import { addDays } from '../../core/calendar.js';
import type { CurrencyRunway, Runway } from '../figure.js';

export const CHART_WIDTH = 800;
const PANEL_HEIGHT = 230;
/** The title's line, then the legend's. */
const TITLE_HEIGHT = 70;
/** Panels drawn at most; a balance with more currencies shows the first ones by code. */
export const MAX_PANELS = 8;
const PLOT = { left: 92, right: CHART_WIDTH - 24, top: 40, bottom: 190 } as const;
/** The font shipped in assets/fonts, the only one the renderer loads. */
export const CHART_FONT_FAMILY = 'Inter';

const COLOURS = { balance: '#1264a3', projection: '#e01e5a', flat: '#2eb67d', axis: '#616061', grid: '#e8e8e8', text: '#1d1c1d' } as const;

type KnownRunway = Extract<Runway, { known: true }>;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const dayFormats: Record<Locale, { thisYear: Intl.DateTimeFormat; otherYear: Intl.DateTimeFormat }> = {
  en: {
    thisYear: new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    otherYear: new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  },
  fr: {
    thisYear: new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    otherYear: new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  },
};
/** `Dec 6`, or `Oct 10, 2028` for a day in another year than `today`'s (a zero day years away). */
const shortDay = (day: string, locale: Locale, today: string) =>
  dayFormats[locale][day.slice(0, 4) === today.slice(0, 4) ? 'thisYear' : 'otherYear'].format(Date.parse(`${day}T00:00:00Z`));

/** An SVG coordinate to a tenth of a pixel (not a number anyone reads). */
const at = (value: number) => String(Math.round(value * 10) / 10);

/** The points of one panel: x in days from the window's first day, y in minor units. */
function series(currency: CurrencyRunway, runway: KnownRunway): { history: [number, number][]; projection: [number, number][]; horizon: number } {
  // The close of each day at its index (the first day at 0), then the balance now at today's.
  const history = currency.history.map((point, i): [number, number] => [i, point.balanceMinor]);
  const now = runway.daysRead;
  history.push([now, currency.balanceMinor]);
  const ahead = currency.daysLeft !== undefined ? Math.min(runway.windowDays, Math.max(1, Math.ceil(currency.daysLeft))) : runway.windowDays;
  const projection: [number, number][] = [[now, currency.balanceMinor]];
  if (currency.daysLeft !== undefined) {
    const reach = Math.min(ahead, currency.daysLeft);
    // Reaching its zero day inside the window, the line ends on zero exactly (daysLeft is rounded).
    projection.push([now + reach, reach === currency.daysLeft ? 0 : Math.max(0, currency.balanceMinor + currency.averageDailyNetMinor * reach)]);
  } else {
    projection.push([now + ahead, currency.balanceMinor + currency.averageDailyNetMinor * ahead]);
  }
  return { history, projection, horizon: now + ahead };
}

function panel(currency: CurrencyRunway, runway: KnownRunway, locale: Locale, top: number): string {
  const t = textsFor(locale);
  const { history, projection, horizon } = series(currency, runway);
  const values = [...history, ...projection].map(([, y]) => y);
  // Each panel is scaled to its own balances (a margin above and below), so that a change small
  // beside a large balance still shows; zero is in the panel when a line reaches it.
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || Math.max(1, Math.abs(max) * 0.02);
  const low = min >= 0 ? Math.max(0, min - span * 0.08) : min - span * 0.08;
  const high = max + span * 0.08;
  const x = (day: number) => PLOT.left + ((PLOT.right - PLOT.left) * day) / Math.max(1, horizon);
  const y = (minor: number) => top + PLOT.bottom - ((PLOT.bottom - PLOT.top) * (minor - low)) / (high - low || 1);
  const path = (points: [number, number][]) => points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${at(x(px))},${at(y(py))}`).join(' ');
  const code = escapeXml(currency.currency.slice(0, 12));
  const state =
    currency.zeroDay !== undefined ? t('runway.chart.zeroOn', { date: shortDay(currency.zeroDay, locale, runway.today) }) : t('runway.chart.notFalling');
  const falling = currency.daysLeft !== undefined;
  const parts: string[] = [
    `<text x="${PLOT.left}" y="${top + 24}" font-size="17" fill="${COLOURS.text}">${code}</text>`,
    `<text x="${PLOT.right}" y="${top + 24}" font-size="14" text-anchor="end" fill="${falling ? COLOURS.projection : COLOURS.flat}">${escapeXml(state)}</text>`,
  ];
  const levels = [min, (min + max) / 2, max];
  const labels = formatDistinctCompact(
    (min === max ? [min] : levels).map((minor) => fromMinor(Math.round(minor), currency.currency)),
    locale,
  );
  for (const [index, label] of labels.entries()) {
    const level = levels[index] as number;
    parts.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${at(y(level))}" y2="${at(y(level))}" stroke="${COLOURS.grid}"/>`);
    parts.push(`<text x="${PLOT.left - 8}" y="${at(y(level) + 4)}" font-size="12" text-anchor="end" fill="${COLOURS.axis}">${escapeXml(label)}</text>`);
  }
  if (low <= 0 && high >= 0) parts.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${at(y(0))}" y2="${at(y(0))}" stroke="${COLOURS.axis}"/>`);
  const labelsX: [number, string, string][] = [
    [0, runway.firstDay, 'start'],
    [runway.daysRead, runway.today, 'middle'],
    [horizon, addDays(runway.today, horizon - runway.daysRead), 'end'],
  ];
  for (const [day, label, anchor] of labelsX) {
    parts.push(
      `<text x="${at(x(day))}" y="${top + PLOT.bottom + 18}" font-size="12" text-anchor="${anchor}" fill="${COLOURS.axis}">${escapeXml(shortDay(label, locale, runway.today))}</text>`,
    );
  }
  parts.push(
    `<line x1="${at(x(runway.daysRead))}" x2="${at(x(runway.daysRead))}" y1="${top + PLOT.top}" y2="${top + PLOT.bottom}" stroke="${COLOURS.grid}" stroke-dasharray="2 3"/>`,
  );
  parts.push(`<path d="${path(history)}" fill="none" stroke="${COLOURS.balance}" stroke-width="2.5" stroke-linejoin="round"/>`);
  parts.push(`<path d="${path(projection)}" fill="none" stroke="${falling ? COLOURS.projection : COLOURS.flat}" stroke-width="2.5" stroke-dasharray="7 5"/>`);
  return parts.join('');
}

/** The legend, on its own line under the title: one entry per kind of line the panels draw (text widths estimated for the shipped font at 13 px). */
function legend(runway: KnownRunway, locale: Locale): string[] {
  const t = textsFor(locale);
  const entries: Array<{ name: string; colour: string; dashed: boolean }> = [{ name: t('runway.chart.balance'), colour: COLOURS.balance, dashed: false }];
  if (runway.currencies.some((currency) => currency.daysLeft !== undefined))
    entries.push({ name: t('runway.chart.falling'), colour: COLOURS.projection, dashed: true });
  if (runway.currencies.some((currency) => currency.daysLeft === undefined))
    entries.push({ name: t('runway.chart.rising'), colour: COLOURS.flat, dashed: true });
  const width = (name: string) => 34 + Math.ceil(name.length * 6.4) + 24;
  let x = 24;
  const parts: string[] = [];
  for (const entry of entries) {
    parts.push(`<line x1="${x}" x2="${x + 28}" y1="53" y2="53" stroke="${entry.colour}" stroke-width="2.5"${entry.dashed ? ' stroke-dasharray="7 5"' : ''}/>`);
    parts.push(`<text x="${x + 34}" y="58" font-size="13" fill="${COLOURS.axis}">${escapeXml(entry.name)}</text>`);
    x += width(entry.name);
  }
  return parts;
}

/** The whole chart, `CHART_WIDTH` wide and as tall as its panels; undefined when there is no figure or no currency. */
export function runwayChartSvg(runway: Runway, locale: Locale): { svg: string; width: number; height: number } | undefined {
  if (!runway.known || runway.currencies.length === 0) return undefined;
  const t = textsFor(locale);
  const currencies = runway.currencies.slice(0, MAX_PANELS);
  const height = TITLE_HEIGHT + currencies.length * PANEL_HEIGHT + 12;
  const body = [
    `<rect width="${CHART_WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="24" y="30" font-size="19" fill="${COLOURS.text}">${escapeXml(t('runway.title'))}</text>`,
    ...legend({ ...runway, currencies }, locale),
    ...currencies.map((currency, i) => panel(currency, runway, locale, TITLE_HEIGHT + i * PANEL_HEIGHT)),
  ].join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}" font-family="${CHART_FONT_FAMILY}">\n${body}\n</svg>`;
  return { svg, width: CHART_WIDTH, height };
}
