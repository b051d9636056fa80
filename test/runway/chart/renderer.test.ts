import { afterAll, describe, expect, it } from 'vitest';
import type { Runway } from '../../../src/runway/index.js';
import { ChartRenderer } from '../../../src/runway/chart/renderer.js';
import { runwayChartSvg } from '../../../src/runway/chart/svg.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk, which must come first. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const history = (start: number, step: number) =>
  Array.from({ length: 14 }, (_, i) => ({ day: `2026-11-${String(12 + i).padStart(2, '0')}`, balanceMinor: start + step * i }));

export const SAMPLE_RUNWAY: Runway = {
  known: true,
  today: '2026-11-26',
  timeZone: 'UTC',
  windowDays: 14,
  daysRead: 14,
  firstDay: '2026-11-12',
  lastDay: '2026-11-25',
  readAt: new Date('2026-11-26T09:00:00Z'),
  currencies: [
    { currency: 'EUR', balanceMinor: 3_172_309, averageDailyNetMinor: -291_723, daysLeft: 10.87, zeroDay: '2026-12-06', history: history(7_000_000, -291_723) },
    { currency: 'USD', balanceMinor: 18_898_517, averageDailyNetMinor: 105_030, history: history(17_500_000, 105_030) },
  ],
};

describe('the runway chart', () => {
  const renderer = new ChartRenderer();
  afterAll(async () => renderer.close());

  it('is a PNG at least 600 pixels wide, with one panel per currency, the size it says', async () => {
    const chart = await renderer.render(SAMPLE_RUNWAY, 'en');
    expect(chart).toBeDefined();
    const size = pngSize(chart!.png);
    expect(size.width).toBeGreaterThanOrEqual(600);
    expect(size).toEqual({ width: chart!.width, height: chart!.height });
    const onePanel = pngSize((await renderer.render({ ...SAMPLE_RUNWAY, currencies: SAMPLE_RUNWAY.currencies.slice(0, 1) }, 'en'))!.png);
    expect(size.height).toBeGreaterThan(onePanel.height);
  });

  it('draws the same bytes every time, from the shipped font alone', async () => {
    const [first, second] = await Promise.all([renderer.render(SAMPLE_RUNWAY, 'fr'), renderer.render(SAMPLE_RUNWAY, 'fr')]);
    expect(first!.png.equals(second!.png)).toBe(true);
    expect(first!.png.equals((await renderer.render(SAMPLE_RUNWAY, 'en'))!.png)).toBe(false);
  });

  it("says in the picture when each currency reaches zero or that it is not falling, in the reader's language", () => {
    expect(runwayChartSvg(SAMPLE_RUNWAY, 'en')?.svg).toContain('zero on Dec 6');
    expect(runwayChartSvg(SAMPLE_RUNWAY, 'en')?.svg).toContain('not falling');
    expect(runwayChartSvg(SAMPLE_RUNWAY, 'fr')?.svg).toContain('à zéro le 6 déc.');
  });

  it("writes the year of a day that is not in the current year, in the panel's zero day and on its axis", () => {
    const far: Runway = {
      ...SAMPLE_RUNWAY,
      windowDays: 700,
      currencies: [{ ...SAMPLE_RUNWAY.currencies[0]!, averageDailyNetMinor: -4_638, daysLeft: 684, zeroDay: '2028-10-10' }],
    };
    expect(runwayChartSvg(far, 'en')!.svg).toContain('zero on Oct 10, 2028');
    expect(runwayChartSvg(far, 'fr')!.svg).toContain('à zéro le 10 oct. 2028');
    // This year's days keep the short form.
    expect(runwayChartSvg(far, 'en')!.svg).toContain('>Nov 12<');
  });

  it('scales each panel to its own balances, so that a small change on a large balance shows', () => {
    const large = (start: number, step: number) =>
      Array.from({ length: 14 }, (_, i) => ({ day: `2026-11-${String(12 + i).padStart(2, '0')}`, balanceMinor: start + step * i }));
    const steady: Runway = {
      ...SAMPLE_RUNWAY,
      currencies: [{ currency: 'CDF', balanceMinor: 69_310_000_000, averageDailyNetMinor: 2_000_000, history: large(69_280_000_000, 2_000_000) }],
    };
    const svg = runwayChartSvg(steady, 'en')!.svg;
    const ticks = [...svg.matchAll(/<text x="84" y="[\d.]+" font-size="12" text-anchor="end" fill="#616061">([^<]+)<\/text>/g)].map((match) => match[1]);
    expect(ticks).toHaveLength(3);
    expect(new Set(ticks).size).toBe(3);
    expect(ticks).not.toContain('0');
    const lines = [...svg.matchAll(/<path d="([^"]+)" fill="none"/g)].map((match) => match[1]!).join(' ');
    const ys = [...lines.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((match) => Number(match[1]));
    // The balance and its projection climb across most of the plot's 150 pixels instead of lying flat near its top.
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(120);
  });

  it('names in the legend each kind of line it draws', () => {
    const en = runwayChartSvg(SAMPLE_RUNWAY, 'en')!.svg;
    for (const name of ['balance', 'at this pace, falling', 'at this pace, not falling']) expect(en).toContain(`>${name}<`);
    const fr = runwayChartSvg(SAMPLE_RUNWAY, 'fr')!.svg;
    for (const name of ['solde', 'à ce rythme, en baisse', 'à ce rythme, ne baisse pas']) expect(fr).toContain(`>${name}<`);
    const onlyRising = runwayChartSvg({ ...SAMPLE_RUNWAY, currencies: SAMPLE_RUNWAY.currencies.slice(1) }, 'en')!.svg;
    expect(onlyRising).not.toContain('at this pace, falling');
  });

  it('escapes a currency code from the API that holds markup', () => {
    const odd: Runway = { ...SAMPLE_RUNWAY, currencies: [{ ...SAMPLE_RUNWAY.currencies[1]!, currency: '<b>&"' }] };
    const svg = runwayChartSvg(odd, 'en')!.svg;
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&#60;b&#62;&#38;&#34;');
  });

  it('draws nothing without a figure', async () => {
    expect(await renderer.render({ known: false, reason: 'ledger_off', windowDays: 14 }, 'en')).toBeUndefined();
  });
});
