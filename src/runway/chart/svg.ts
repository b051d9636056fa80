/**
 * The runway chart as SVG: one panel per currency, its closing balance over the window (solid) and
 * where it goes at this pace from the balance now (dashed), down to zero when it falls. Built as
 * text here, rasterised to PNG in a worker (`renderer.ts`) with the shipped font, so the picture is
 * the same on every machine. Currency codes come from the API: every text is XML-escaped.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatNumber, fromMinor } from '../../money.js';
import { addDays } from '../../calendar.js';
import type { CurrencyRunway, Runway } from '../figure.js';

export const CHART_WIDTH = 800;
const PANEL_HEIGHT = 230;
const TITLE_HEIGHT = 44;
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

const dayFormats: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
  fr: new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
};
const shortDay = (day: string, locale: Locale) => dayFormats[locale].format(Date.parse(`${day}T00:00:00Z`));


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
    projection.push([now + reach, Math.max(0, currency.balanceMinor + currency.averageDailyNetMinor * reach)]);
  } else {
    projection.push([now + ahead, currency.balanceMinor + currency.averageDailyNetMinor * ahead]);
  }
  return { history, projection, horizon: now + ahead };
}

function panel(currency: CurrencyRunway, runway: KnownRunway, locale: Locale, top: number): string {
  const t = textsFor(locale);
  const { history, projection, horizon } = series(currency, runway);
  const values = [...history, ...projection].map(([, y]) => y);
  const low = Math.min(0, ...values);
  const high = Math.max(1, ...values) * 1.08;
  const x = (day: number) => PLOT.left + ((PLOT.right - PLOT.left) * day) / Math.max(1, horizon);
  const y = (minor: number) => top + PLOT.bottom - ((PLOT.bottom - PLOT.top) * (minor - low)) / (high - low || 1);
  const path = (points: [number, number][]) => points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${at(x(px))},${at(y(py))}`).join(' ');
  const code = escapeXml(currency.currency.slice(0, 12));
  const tick = (minor: number) => escapeXml(formatNumber(fromMinor(Math.round(minor), currency.currency), locale, 'compact'));
  const state = currency.zeroDay !== undefined ? t('runway.chart.zeroOn', { date: shortDay(currency.zeroDay, locale) }) : t('runway.chart.notFalling');
  const falling = currency.daysLeft !== undefined;
  const parts: string[] = [
    `<text x="${PLOT.left}" y="${top + 24}" font-size="17" fill="${COLOURS.text}">${code}</text>`,
    `<text x="${PLOT.right}" y="${top + 24}" font-size="14" text-anchor="end" fill="${falling ? COLOURS.projection : COLOURS.flat}">${escapeXml(state)}</text>`,
  ];
  for (const level of [low, (low + high / 1.08) / 2, high / 1.08]) {
    parts.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${at(y(level))}" y2="${at(y(level))}" stroke="${COLOURS.grid}"/>`);
    parts.push(`<text x="${PLOT.left - 8}" y="${at(y(level) + 4)}" font-size="12" text-anchor="end" fill="${COLOURS.axis}">${tick(level)}</text>`);
  }
  parts.push(`<line x1="${PLOT.left}" x2="${PLOT.right}" y1="${at(y(0))}" y2="${at(y(0))}" stroke="${COLOURS.axis}"/>`);
  const labels: [number, string, string][] = [
    [0, runway.firstDay, 'start'], [runway.daysRead, runway.today, 'middle'], [horizon, addDays(runway.today, horizon - runway.daysRead), 'end'],
  ];
  for (const [day, label, anchor] of labels) {
    parts.push(`<text x="${at(x(day))}" y="${top + PLOT.bottom + 18}" font-size="12" text-anchor="${anchor}" fill="${COLOURS.axis}">${escapeXml(shortDay(label, locale))}</text>`);
  }
  parts.push(`<line x1="${at(x(runway.daysRead))}" x2="${at(x(runway.daysRead))}" y1="${top + PLOT.top}" y2="${top + PLOT.bottom}" stroke="${COLOURS.grid}" stroke-dasharray="2 3"/>`);
  parts.push(`<path d="${path(history)}" fill="none" stroke="${COLOURS.balance}" stroke-width="2.5" stroke-linejoin="round"/>`);
  parts.push(`<path d="${path(projection)}" fill="none" stroke="${falling ? COLOURS.projection : COLOURS.flat}" stroke-width="2.5" stroke-dasharray="7 5"/>`);
  return parts.join('');
}

/** The whole chart, `CHART_WIDTH` wide and as tall as its panels; undefined when there is no figure or no currency. */
export function runwayChartSvg(runway: Runway, locale: Locale): { svg: string; width: number; height: number } | undefined {
  if (!runway.known || runway.currencies.length === 0) return undefined;
  const t = textsFor(locale);
  const currencies = runway.currencies.slice(0, MAX_PANELS);
  const height = TITLE_HEIGHT + currencies.length * PANEL_HEIGHT + 12;
  const legendX = CHART_WIDTH - 24;
  const body = [
    `<rect width="${CHART_WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="24" y="30" font-size="19" fill="${COLOURS.text}">${escapeXml(t('runway.title'))}</text>`,
    `<line x1="${legendX - 250}" x2="${legendX - 222}" y1="24" y2="24" stroke="${COLOURS.balance}" stroke-width="2.5"/>`,
    `<text x="${legendX - 216}" y="29" font-size="13" fill="${COLOURS.axis}">${escapeXml(t('runway.chart.balance'))}</text>`,
    `<line x1="${legendX - 120}" x2="${legendX - 92}" y1="24" y2="24" stroke="${COLOURS.projection}" stroke-width="2.5" stroke-dasharray="7 5"/>`,
    `<text x="${legendX - 86}" y="29" font-size="13" fill="${COLOURS.axis}">${escapeXml(t('runway.chart.projection'))}</text>`,
    ...currencies.map((currency, i) => panel(currency, runway, locale, TITLE_HEIGHT + i * PANEL_HEIGHT)),
  ].join('\n');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}" font-family="${CHART_FONT_FAMILY}">\n${body}\n</svg>`;
  return { svg, width: CHART_WIDTH, height };
}
