/**
 * A run's exceptions as rows of its CSV file: what differs, what the ledger lacks, what the records
 * lack. Amounts in the export's machine form (`-1250.50`), whatever the reader's language; the Slack
 * layer neutralises every cell as the export does when it writes the file.
 */
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';
import { minorToPlain } from '../core/money.js';
import type { MatchResult } from './match.js';

/** The header row: English identifiers, as the export's, for scripts that read by name. */
export const EXCEPTION_COLUMNS = ['kind', 'reference', 'date', 'records_amount', 'ledger_amount', 'currency', 'note', 'records_row', 'records_sum'] as const;

/** The columns holding amounts the app wrote in machine form: numbers for a spreadsheet, never neutralised. */
export const EXCEPTION_AMOUNT_COLUMNS: readonly number[] = [
  EXCEPTION_COLUMNS.indexOf('records_amount'),
  EXCEPTION_COLUMNS.indexOf('ledger_amount'),
  EXCEPTION_COLUMNS.indexOf('records_sum'),
];

/**
 * `not_found_yet`: a record the ledger does not hold while it cannot vouch for the period (behind, or
 * its history not loaded that far): it may only be late, so it is not called missing.
 */
export type ExceptionKind = 'amount_difference' | 'not_in_ledger' | 'not_found_yet' | 'not_in_records';

export interface ExceptionRow {
  kind: ExceptionKind;
  reference: string;
  /** The record's date as written, or the ledger entry's UTC date. */
  date: string;
  recordsAmount: string;
  ledgerAmount: string;
  /** One currency, or `USD/EUR` when a reference was found in another currency. */
  currency: string;
  /** The record's note, or the ledger entry's description. */
  note: string;
  /** The record's row in the file; undefined for an entry the records lack. */
  recordsRow: number | undefined;
  /**
   * For an amount difference of records sharing a reference compared together with one entry: their
   * sum, on each of their rows; empty otherwise.
   */
  recordsSum: string;
}

/**
 * Differences first, then the records the ledger lacks (or has not shown yet), then the entries the
 * records lack; written in slices (a period the records barely cover leaves tens of thousands).
 */
export async function exceptionRows(result: MatchResult, ledgerComplete: boolean, turns: BackgroundTurns = new EventLoopTurns()): Promise<ExceptionRow[]> {
  const slices = new Slices(turns);
  const rows: ExceptionRow[] = [];
  for (const { record, entry, sharedSum } of result.differences) {
    if (slices.due()) await slices.next();
    rows.push({
      kind: 'amount_difference',
      reference: record.reference,
      date: record.dateText,
      recordsAmount: minorToPlain(record.amountMinor, record.currency),
      ledgerAmount: minorToPlain(entry.amountMinor, entry.currency),
      currency: record.currency === entry.currency ? record.currency : `${record.currency}/${entry.currency}`,
      note: record.note,
      recordsRow: record.row,
      recordsSum: sharedSum === undefined ? '' : minorToPlain(sharedSum.minor, record.currency),
    });
  }
  for (const record of result.notInLedger) {
    if (slices.due()) await slices.next();
    rows.push({
      kind: ledgerComplete ? 'not_in_ledger' : 'not_found_yet',
      reference: record.reference,
      date: record.dateText,
      recordsAmount: minorToPlain(record.amountMinor, record.currency),
      ledgerAmount: '',
      currency: record.currency,
      note: record.note,
      recordsRow: record.row,
      recordsSum: '',
    });
  }
  for (const entry of result.notInRecords) {
    if (slices.due()) await slices.next();
    rows.push({
      kind: 'not_in_records',
      reference: entry.reference,
      date: entry.date,
      recordsAmount: '',
      ledgerAmount: minorToPlain(entry.amountMinor, entry.currency),
      currency: entry.currency,
      note: entry.description,
      recordsRow: undefined,
      recordsSum: '',
    });
  }
  return rows;
}

/** A row as the file's cells, in EXCEPTION_COLUMNS' order. */
export function exceptionCells(row: ExceptionRow): string[] {
  return [
    row.kind,
    row.reference,
    row.date,
    row.recordsAmount,
    row.ledgerAmount,
    row.currency,
    row.note,
    row.recordsRow === undefined ? '' : String(row.recordsRow),
    row.recordsSum,
  ];
}
