/**
 * The latency setting: every Web API call, response URL post and request to the app waits as a round
 * trip to Slack takes (100–400 ms, more at p99), drawn from a seeded log-normal distribution so that a
 * run is repeatable. Off unless asked for, by option or by `LOCAL_SLACK_LATENCY`.
 */

export interface LatencyOptions {
  /** The median round trip in milliseconds. */
  medianMs: number;
  /** The 99th percentile in milliseconds (at least the median). */
  p99Ms: number;
  /** Seeds the draws; the same seed gives the same delays in the same order. */
  seed?: number;
}

/** Slack's round trips as measured from a nearby region: 150 ms median, 600 ms p99. */
export const REAL_LATENCY: LatencyOptions = { medianMs: 150, p99Ms: 600 };

// The standard normal's 99th percentile.
const Z99 = 2.3263;

/**
 * The setting an option or `LOCAL_SLACK_LATENCY` names: `real` (150 ms median, 600 ms p99),
 * `<median>,<p99>` in milliseconds, or `off`; the option wins, `false` turns it off.
 */
export function latencySetting(
  option: LatencyOptions | false | undefined,
  env: string | undefined = process.env.LOCAL_SLACK_LATENCY,
): LatencyOptions | undefined {
  if (option !== undefined) return option || undefined;
  const value = env?.trim().toLowerCase();
  if (!value || value === 'off' || value === '0') return undefined;
  if (value === 'real') return REAL_LATENCY;
  const numbers = /^(\d+)\s*,\s*(\d+)$/.exec(value);
  if (!numbers) throw new Error(`LOCAL_SLACK_LATENCY: write real, off, or <median ms>,<p99 ms> such as 150,600 (got "${env}")`);
  return { medianMs: Number(numbers[1]), p99Ms: Number(numbers[2]) };
}

/** A function that returns the next delay in milliseconds, drawn from the setting's distribution. */
export function latencyDraws(setting: LatencyOptions): () => number {
  const random = mulberry32(setting.seed ?? 42);
  const median = Math.max(0, setting.medianMs);
  const sigma = median > 0 ? Math.log(Math.max(setting.p99Ms, median) / median) / Z99 : 0;
  return () => {
    // Box–Muller: a standard normal from two uniform draws.
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.min(median * Math.exp(sigma * z), 3 * Math.max(setting.p99Ms, median));
  };
}

/** Waits one draw of the setting; undefined when the setting is off. */
export function slowdown(option: LatencyOptions | false | undefined): (() => Promise<void>) | undefined {
  const setting = latencySetting(option);
  if (!setting) return undefined;
  const next = latencyDraws(setting);
  return () => new Promise((resolve) => setTimeout(resolve, next()));
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
