/** The records runs kept (tables `records_runs`, `records_run_exceptions`): written once per submission, read for the history. */
import type { Db, Queryable } from '../store/db.js';
import type { ExceptionKind, ExceptionRow } from './exceptions.js';

/** Matched records in one currency: how many, and their signed sum in minor units. */
export interface CurrencyTotal {
  count: number;
  minor: number;
}

/** One group of records sharing a reference matched by their sum: the reference, how many records, their sum. */
export interface SumGroup {
  reference: string;
  records: number;
  currency: string;
  minor: number;
}

/** The groups of records matched by their sum: how many, the records in them, and the first few (at most SHOWN_SUM_GROUPS). */
export interface SumGroups {
  groups: number;
  records: number;
  shown: SumGroup[];
}

/** Groups named with a run; the rest counted. */
export const SHOWN_SUM_GROUPS = 5;

export interface RunSummary {
  id: string;
  userId: string;
  createdAt: Date;
  fileName: string;
  periodStart: string;
  periodEnd: string;
  ledgerComplete: boolean;
  records: number;
  matched: number;
  differences: number;
  notInLedger: number;
  notInRecords: number;
  /** By currency code, in code order. */
  totals: ReadonlyMap<string, CurrencyTotal>;
  /** Of the matched records, those matched by their sum with others sharing their reference. */
  bySum: SumGroups;
}

interface RunRow {
  id: string;
  user_id: string;
  created_at: Date | string;
  file_name: string;
  period_start: string;
  period_end: string;
  ledger_complete: boolean;
  record_count: number;
  matched: number;
  differences: number;
  not_in_ledger: number;
  not_in_records: number;
  totals: Record<string, CurrencyTotal> | string;
  by_sum: SumGroups | string;
}

function toSummary(row: RunRow): RunSummary {
  const totals = typeof row.totals === 'string' ? (JSON.parse(row.totals) as Record<string, CurrencyTotal>) : row.totals;
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: new Date(row.created_at),
    fileName: row.file_name,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    ledgerComplete: row.ledger_complete,
    records: Number(row.record_count),
    matched: Number(row.matched),
    differences: Number(row.differences),
    notInLedger: Number(row.not_in_ledger),
    notInRecords: Number(row.not_in_records),
    totals: new Map(Object.entries(totals).sort(([a], [b]) => (a < b ? -1 : 1))),
    bySum: typeof row.by_sum === 'string' ? (JSON.parse(row.by_sum) as SumGroups) : row.by_sum,
  };
}

const EXCEPTION_BATCH = 500;

/**
 * Keeps a run and its exceptions in one transaction. A submission already kept (its `sourceKey`)
 * keeps the first: resolves with that run's id and `kept: false`.
 */
export async function keepRun(db: Db, run: RunSummary & { sourceKey: string }, exceptions: readonly ExceptionRow[]): Promise<{ id: string; kept: boolean }> {
  return db.transaction(async (tx) => {
    const totals = Object.fromEntries(run.totals);
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO records_runs (id, source_key, user_id, created_at, file_name, period_start, period_end, ledger_complete,
                                 record_count, matched, differences, not_in_ledger, not_in_records, totals, by_sum)
       VALUES ($1, $2, $3, $4::timestamptz, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15::jsonb)
       ON CONFLICT (tenant_id, source_key) DO NOTHING RETURNING id`,
      [
        run.id,
        run.sourceKey,
        run.userId,
        run.createdAt.toISOString(),
        run.fileName,
        run.periodStart,
        run.periodEnd,
        run.ledgerComplete,
        run.records,
        run.matched,
        run.differences,
        run.notInLedger,
        run.notInRecords,
        JSON.stringify(totals),
        JSON.stringify(run.bySum),
      ],
    );
    if (inserted.rows.length === 0) {
      const { rows } = await tx.query<{ id: string }>('SELECT id FROM records_runs WHERE source_key = $1', [run.sourceKey]);
      return { id: rows[0]?.id ?? run.id, kept: false };
    }
    for (let at = 0; at < exceptions.length; at += EXCEPTION_BATCH) {
      const batch = exceptions.slice(at, at + EXCEPTION_BATCH).map((row, index) => ({
        ord: at + index,
        kind: row.kind,
        reference: row.reference,
        date: row.date,
        records_amount: row.recordsAmount,
        ledger_amount: row.ledgerAmount,
        currency: row.currency,
        note: row.note,
        records_row: row.recordsRow ?? null,
        records_sum: row.recordsSum,
      }));
      await tx.query(
        `INSERT INTO records_run_exceptions (run_id, ord, kind, reference, date, records_amount, ledger_amount, currency, note, records_row, records_sum)
         SELECT $1, r.ord, r.kind, r.reference, r.date, r.records_amount, r.ledger_amount, r.currency, r.note, r.records_row, r.records_sum
           FROM jsonb_to_recordset($2::jsonb) AS r(ord integer, kind text, reference text, date text, records_amount text,
                ledger_amount text, currency text, note text, records_row integer, records_sum text)`,
        [run.id, JSON.stringify(batch)],
      );
    }
    return { id: run.id, kept: true };
  });
}

const SUMMARY_COLUMNS = `id, user_id, created_at, file_name, period_start, period_end, ledger_complete, record_count, matched,
  differences, not_in_ledger, not_in_records, totals, by_sum`;

/** The latest runs, newest first. */
export async function recentRuns(db: Queryable, limit: number): Promise<RunSummary[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM records_runs ORDER BY created_at DESC, id DESC LIMIT ${Math.max(1, Math.floor(limit))}`,
  );
  return rows.map(toSummary);
}

export async function runById(db: Queryable, id: string): Promise<RunSummary | undefined> {
  const { rows } = await db.query<RunRow>(`SELECT ${SUMMARY_COLUMNS} FROM records_runs WHERE id = $1`, [id]);
  return rows[0] && toSummary(rows[0]);
}

/** A run's exceptions in the file's order. */
export async function runExceptions(db: Queryable, id: string): Promise<ExceptionRow[]> {
  const { rows } = await db.query<{
    kind: ExceptionKind;
    reference: string;
    date: string;
    records_amount: string;
    ledger_amount: string;
    currency: string;
    note: string;
    records_row: number | null;
    records_sum: string;
  }>(
    `SELECT kind, reference, date, records_amount, ledger_amount, currency, note, records_row, records_sum
       FROM records_run_exceptions WHERE run_id = $1 ORDER BY ord`,
    [id],
  );
  return rows.map((row) => ({
    kind: row.kind,
    reference: row.reference,
    date: row.date,
    recordsAmount: row.records_amount,
    ledgerAmount: row.ledger_amount,
    currency: row.currency,
    note: row.note,
    recordsRow: row.records_row === null ? undefined : Number(row.records_row),
    recordsSum: row.records_sum,
  }));
}
