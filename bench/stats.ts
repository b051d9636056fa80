/** Small figures shared by the benchmarks: a percentile of sorted samples and rounding for the tables. */

/** The `p`th percentile (nearest rank) of samples sorted ascending; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits: number): number {
  return Math.round(value * 10 ** digits) / 10 ** digits;
}
