/**
 * The bench's one table of targets: each figure beside the reference it is measured against in the
 * same run (a bare Bolt app, the Postgres mode, or a fixed bound), the ratio or value compared with
 * the target, and whether it held. Every bench that has a target adds its rows here.
 */

export interface TargetRow {
  /** What was measured, e.g. "ack p99, answers from cache, embedded store". */
  figure: string;
  /** The figure itself, in `unit`. */
  value: number;
  /** What it is compared with, in `unit` (the bare app's p99, the Postgres mode's RSS); undefined for a fixed bound. */
  reference: number | undefined;
  unit: string;
  /** value ÷ reference when there is a reference. */
  ratio: number | undefined;
  /** The target as read by a person: "≤ 1.2× bare Bolt", "≤ 50 ms". */
  target: string;
  held: boolean;
}

/** A row whose target is a ratio against a reference measured in the same run. */
export function ratioRow(figure: string, value: number, reference: number, unit: string, maxRatio: number, referenceName: string): TargetRow {
  const ratio = reference > 0 ? value / reference : Number.POSITIVE_INFINITY;
  return { figure, value, reference, unit, ratio: round(ratio), target: `≤ ${maxRatio}× ${referenceName}`, held: ratio <= maxRatio };
}

/** A row whose target is a fixed bound. */
export function boundRow(figure: string, value: number, unit: string, max: number): TargetRow {
  return { figure, value, reference: undefined, unit, ratio: undefined, target: `≤ ${max} ${unit}`, held: value <= max };
}

export function printTargets(rows: readonly TargetRow[]): void {
  console.log(`\nTargets (${rows.filter((row) => row.held).length} of ${rows.length} held)`);
  console.table(
    rows.map((row) => ({
      figure: row.figure,
      value: `${round(row.value)} ${row.unit}`,
      reference: row.reference === undefined ? '' : `${round(row.reference)} ${row.unit}`,
      ratio: row.ratio ?? '',
      target: row.target,
      held: row.held ? 'yes' : 'NO',
    })),
  );
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
