/**
 * Runway chart benchmark: how long one chart takes, from the figure to PNG bytes (SVG built on the
 * main thread, rasterised in the worker), for three currencies over a 14-day window, after one
 * warm-up render (the worker's start); and the main thread's longest event-loop delay meanwhile, which
 * the worker keeps small. `npx tsx bench/runway.ts docs/runway-chart.png` also writes the sample
 * chart the docs show.
 */
import { writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ChartRenderer } from '../src/runway/chart/renderer.js';
import type { Runway } from '../src/runway/index.js';
import { percentile, round } from './stats.js';

const RUNS = 30;

const history = (start: number, step: number, wobble: number) =>
  Array.from({ length: 14 }, (_, i) => ({
    day: `2026-11-${String(12 + i).padStart(2, '0')}`,
    balanceMinor: Math.round(start + step * i + wobble * Math.sin(i * 1.7)),
  }));

/** Card funding draining EUR, USD rising, CDF about flat: the chart the docs show. */
export const SAMPLE_RUNWAY: Runway = {
  known: true,
  today: '2026-11-26',
  timeZone: 'Africa/Kinshasa',
  windowDays: 14,
  daysRead: 14,
  firstDay: '2026-11-12',
  lastDay: '2026-11-25',
  readAt: new Date('2026-11-26T09:00:00Z'),
  currencies: [
    {
      currency: 'CDF',
      balanceMinor: 64_799_289_140,
      averageDailyNetMinor: -1_207_514_290,
      daysLeft: 53.66,
      zeroDay: '2027-01-18',
      history: history(80_500_000_000, -1_207_514_290, 900_000_000),
    },
    {
      currency: 'EUR',
      balanceMinor: 3_172_309,
      averageDailyNetMinor: -291_723,
      daysLeft: 10.87,
      zeroDay: '2026-12-06',
      history: history(7_000_000, -291_723, 150_000),
    },
    { currency: 'USD', balanceMinor: 18_898_517, averageDailyNetMinor: 105_030, history: history(17_500_000, 105_030, 300_000) },
  ],
};

export async function runRunwayBench(): Promise<Record<string, number>> {
  const renderer = new ChartRenderer();
  try {
    const warm = performance.now();
    const first = await renderer.render(SAMPLE_RUNWAY, 'en');
    const firstMs = performance.now() - warm;
    // The machine's own noise: the same measure over as long with nothing rendering.
    const idle = monitorEventLoopDelay({ resolution: 5 });
    idle.enable();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    idle.disable();
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const started = performance.now();
      await renderer.render(SAMPLE_RUNWAY, i % 2 === 0 ? 'en' : 'fr');
      times.push(performance.now() - started);
    }
    delay.disable();
    times.sort((a, b) => a - b);
    return {
      charts: RUNS,
      width_px: first?.width ?? 0,
      height_px: first?.height ?? 0,
      png_kb: round((first?.png.length ?? 0) / 1024, 1),
      first_chart_ms: round(firstMs, 1),
      chart_p50_ms: round(percentile(times, 50), 1),
      chart_p99_ms: round(percentile(times, 99), 1),
      event_loop_delay_max_ms: round(delay.max / 1e6, 1),
      event_loop_delay_p99_ms: round(delay.percentile(99) / 1e6, 1),
      idle_event_loop_delay_max_ms: round(idle.max / 1e6, 1),
    };
  } finally {
    await renderer.close();
  }
}

export function printRunwayBench(result: Record<string, number>): void {
  console.log(
    `\nRunway chart: ${result.charts} charts of 3 currencies (${result.width_px}×${result.height_px} px, ${result.png_kb} KB), after one warm-up (${result.first_chart_ms} ms, the worker's start)`,
  );
  console.table({
    chart: { p50_ms: result.chart_p50_ms, p99_ms: result.chart_p99_ms },
    'event loop delay': {
      while_rendering_p99_ms: result.event_loop_delay_p99_ms,
      while_rendering_max_ms: result.event_loop_delay_max_ms,
      idle_max_ms: result.idle_event_loop_delay_max_ms,
    },
  });
  console.log('target: ≤ 200 ms a chart; the event loop stays within 50 ms meanwhile');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const output = process.argv[2];
  if (output) {
    const renderer = new ChartRenderer();
    const chart = await renderer.render(SAMPLE_RUNWAY, 'en');
    await renderer.close();
    await writeFile(output, chart!.png);
    console.log(`wrote ${output} (${chart!.width}×${chart!.height} px)`);
  } else {
    const result = await runRunwayBench();
    printRunwayBench(result);
    console.log(JSON.stringify({ runway: result }));
  }
}
