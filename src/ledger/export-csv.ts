/**
 * Writes ledger entries to a CSV file for accountants' tools, streamed: entries are read, joined with
 * the payouts this app made, turned into rows and written in small batches, so memory stays flat
 * however many rows the file holds. No Slack here.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { minorToPlain } from '../core/money.js';
import type { LedgerEntry } from './types.js';
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';

/**
 * The header row. English identifiers, whatever the reader's language: the file is read by
 * spreadsheets and import scripts, which match columns by name. Columns are only ever added at the
 * end, so that every earlier one keeps its place for scripts that read by position.
 */
export const EXPORT_COLUMNS = [
  'reference',
  'date',
  'type',
  'status',
  'direction',
  'amount',
  'currency',
  'description',
  'payout_request_id',
  'requested_by',
  'approved_by',
  'requested_by_name',
  'approved_by_names',
] as const;

/** A payout this app sent, as its transaction appears in the export. */
export interface ExportedPayout {
  requestId: string;
  /** Slack user id of the requester. */
  requestedBy: string;
  /** Slack user ids of the approvals that counted, in the order they were given. */
  approvedBy: string[];
}

/** Finds the payouts this app sent among transaction references (a payout keeps its transaction's reference). */
export interface PayoutLookup {
  byTransactionReferences(references: readonly string[]): Promise<ReadonlyMap<string, ExportedPayout>>;
}

/**
 * The names people go by in Slack, by user id. Someone it cannot name in time is left out of the
 * answer: the export never waits long for a name, and writes that person's id instead.
 */
export interface PersonNames {
  namesOf(userIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** No names: every person is written by their id. */
const NO_NAMES: ReadonlyMap<string, string> = new Map();

export interface CsvExportOptions {
  /** Names for the `requested_by_name` and `approved_by_names` columns; without it, the ids. */
  names?: PersonNames;
  /** Called each time the rows written pass a multiple of `progressEvery` (default 10,000), with that multiple. */
  onProgress?: (rows: number) => void | Promise<void>;
  progressEvery?: number;
  /** How many entries are joined with the payouts in one query and turned into text at once (default 250: a few milliseconds of work). */
  batchSize?: number;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

export interface CsvExportResult {
  rows: number;
}

/** What makes a spreadsheet run a cell as a formula (or a DDE command) when it starts a text cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell a spreadsheet will show as text: one starting like a formula gets a leading `'`. */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** `in` for a credit to the fleet account, `out` for a debit; empty for a zero amount. */
function direction(amountMinor: number): string {
  if (amountMinor > 0) return 'in';
  return amountMinor < 0 ? 'out' : '';
}

/** Between approvers' names, which may hold spaces and commas. */
const NAME_SEPARATOR = '; ';

/**
 * One CSV row: every text cell neutralised; the amount a plain decimal (`-1250.50`) a spreadsheet reads
 * as a number. A person's name is their Slack name, or their id when `names` has none for them.
 */
function exportRow(entry: LedgerEntry, payout: ExportedPayout | undefined, names: ReadonlyMap<string, string> = NO_NAMES): string[] {
  const nameOf = (userId: string) => neutraliseCell(names.get(userId) ?? userId);
  const cells: Record<(typeof EXPORT_COLUMNS)[number], string> = {
    reference: neutraliseCell(entry.reference),
    date: neutraliseCell(entry.date),
    type: neutraliseCell(entry.type),
    status: neutraliseCell(entry.status),
    direction: direction(entry.amountMinor),
    amount: minorToPlain(entry.amountMinor, entry.currency),
    currency: neutraliseCell(entry.currency),
    description: neutraliseCell(entry.description),
    payout_request_id: neutraliseCell(payout?.requestId ?? ''),
    requested_by: neutraliseCell(payout?.requestedBy ?? ''),
    approved_by: neutraliseCell(payout?.approvedBy.join(' ') ?? ''),
    requested_by_name: payout ? nameOf(payout.requestedBy) : '',
    approved_by_names: neutraliseCell(payout?.approvedBy.map(nameOf).join(NAME_SEPARATOR) ?? ''),
  };
  return EXPORT_COLUMNS.map((column) => cells[column]);
}

/** Rows turned into text between two looks at the slice's clock. */
const ROWS_PER_STEP = 25;

// RFC 4180: CRLF line ends, and any field with a line break quoted too (csv-stringify by itself
// quotes only the record delimiter, CRLF, and would leave a lone LF or CR bare).
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;

/**
 * The file's text, one chunk per batch of entries: a batch is joined with the payouts in one query
 * and written in one piece, so that neither a query nor a stream step is paid per row.
 */
async function* csvChunks(entries: AsyncIterable<LedgerEntry>, payouts: PayoutLookup | undefined, options: CsvExportOptions, counted: { rows: number }) {
  const batchSize = options.batchSize ?? 250;
  const progressEvery = options.progressEvery ?? 10_000;
  const turns = options.turns ?? new EventLoopTurns();
  yield `\uFEFF${stringify([[...EXPORT_COLUMNS]], CSV_OPTIONS)}`;
  let batch: LedgerEntry[] = [];
  async function* flush() {
    const found: ReadonlyMap<string, ExportedPayout> = payouts
      ? await payouts.byTransactionReferences([...new Set(batch.map((entry) => entry.reference))])
      : new Map();
    const people = [...new Set([...found.values()].flatMap((payout) => [payout.requestedBy, ...payout.approvedBy]))];
    const names = options.names && people.length > 0 ? await options.names.namesOf(people) : NO_NAMES;
    const before = counted.rows;
    // A slice at a time: whatever waits (a Slack request to acknowledge) runs between two batches,
    // and within a batch once a slice's time has run (250 rows took 50 ms on a loaded machine).
    const slices = new Slices(turns);
    for (let from = 0; from < batch.length; from += ROWS_PER_STEP) {
      yield stringify(
        batch.slice(from, from + ROWS_PER_STEP).map((entry) => exportRow(entry, found.get(entry.reference), names)),
        CSV_OPTIONS,
      );
      if (slices.due()) await slices.next();
    }
    counted.rows += batch.length;
    batch = [];
    await turns.nextBackgroundTurn();
    if (options.onProgress && Math.floor(counted.rows / progressEvery) > Math.floor(before / progressEvery)) {
      await options.onProgress(Math.floor(counted.rows / progressEvery) * progressEvery);
    }
  }
  for await (const entry of entries) {
    batch.push(entry);
    if (batch.length >= batchSize) yield* flush();
  }
  if (batch.length > 0) yield* flush();
}

/**
 * Writes `entries` (in the order given) to a new file at `path`: RFC 4180 (CRLF line ends, fields
 * quoted when they hold a comma, quote or line break, quotes doubled), UTF-8 with a byte order mark so
 * that Excel reads accents right. A text cell starting like a formula is prefixed with `'`.
 */
export async function writeLedgerCsv(
  entries: AsyncIterable<LedgerEntry>,
  path: string,
  payouts: PayoutLookup | undefined,
  options: CsvExportOptions = {},
): Promise<CsvExportResult> {
  const counted = { rows: 0 };
  await pipeline(Readable.from(csvChunks(entries, payouts, options, counted)), createWriteStream(path, { flags: 'wx' }));
  return { rows: counted.rows };
}
