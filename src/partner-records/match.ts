/**
 * Matches the partner's records against ledger entries: by reference first (the Fleet reference, or
 * the partner reference this app sent with a payout), then the rest by amount, currency and
 * direction within the tolerance of days (the closest date wins, then the oldest entry), each entry
 * used once. Records sharing a reference (a transfer, its fee and the fee's VAT) are taken together:
 * one by one to entries of their own amount, then the rest by their sum to one entry. Pure, and run
 * in slices of a few milliseconds that yield to the event loop.
 */
import { EventLoopTurns, Slices, type BackgroundTurns } from '../runtime/turns.js';
import type { PartnerRecord } from './file.js';

/** A ledger entry as the match sees it. */
export interface LedgerCandidate {
  key: string;
  reference: string;
  /** The partner reference this app sent, when the entry is one of its payouts. */
  partnerReference: string | undefined;
  /** Signed minor units, as in the ledger. */
  amountMinor: number;
  currency: string;
  /** Epoch milliseconds. */
  at: number;
  /** ISO 8601 UTC, as the API sent it. */
  date: string;
  description: string;
}

/**
 * The calendar days the match reads: the records' days widened by the tolerance on each side, with
 * the first instant of each (and the end of the last) in LEDGER_TIMEZONE.
 */
export interface DayGrid {
  days: readonly string[];
  /** `starts[i]` is the first instant of `days[i]`; one more at the end: the end of the last day. */
  starts: readonly number[];
  /** Index in `days` of the records' first and last day. */
  firstPeriodDay: number;
  lastPeriodDay: number;
}

/** `sum`: one of several records sharing a reference whose sum is the entry's amount. */
export type MatchedBy = 'reference' | 'sum' | 'amount';

/** Records sharing a reference compared together with one entry: how many, and their signed sum. */
export interface SharedSum {
  records: number;
  minor: number;
}

export interface MatchResult {
  /** One pair per record: the records matched by their sum each name their one entry. */
  matched: Array<{ record: PartnerRecord; entry: LedgerCandidate; by: MatchedBy }>;
  /**
   * A reference found with another amount (or currency): both shown; with `sharedSum` when several
   * records sharing the reference were compared together with the one entry left.
   */
  differences: Array<{ record: PartnerRecord; entry: LedgerCandidate; sharedSum?: SharedSum }>;
  notInLedger: PartnerRecord[];
  /** Entries inside the records' days that no record matched (empty when the ledger is not complete). */
  notInRecords: LedgerCandidate[];
  /** The groups of records matched by their sum, in the order they were matched (their records' dates). */
  bySum: Array<{ reference: string; entry: LedgerCandidate; records: PartnerRecord[] }>;
}

export interface MatchInput {
  records: readonly PartnerRecord[];
  /** Every entry dated inside the grid's days, oldest first. */
  windowEntries: readonly LedgerCandidate[];
  /** Entries found by the records' references outside the grid's days (matched by reference only). */
  referencedEntries: readonly LedgerCandidate[];
  grid: DayGrid;
  toleranceDays: number;
  /** False: the ledger may lack entries of the period, so none is called missing from the records. */
  ledgerComplete: boolean;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

/** The index of the day `at` falls on, or -1 outside the grid. */
export function dayIndexOf(grid: DayGrid, at: number): number {
  const { starts } = grid;
  if (at < starts[0]! || at >= starts[starts.length - 1]!) return -1;
  let low = 0;
  let high = starts.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (starts[middle]! <= at) low = middle;
    else high = middle;
  }
  return low;
}

/** Earlier is better: the closest date, then the oldest entry, then the key. */
function better(a: { distance: number; entry: LedgerCandidate }, b: { distance: number; entry: LedgerCandidate } | undefined): boolean {
  if (!b) return true;
  if (a.distance !== b.distance) return a.distance < b.distance;
  if (a.entry.at !== b.entry.at) return a.entry.at < b.entry.at;
  return a.entry.key < b.entry.key;
}

export async function matchRecords(input: MatchInput): Promise<MatchResult> {
  const { grid } = input;
  const slices = new Slices(input.turns ?? new EventLoopTurns());
  const dayIndex = new Map(grid.days.map((day, index) => [day, index]));
  const used = new Set<string>();
  const result: MatchResult = { matched: [], differences: [], notInLedger: [], notInRecords: [], bySum: [] };
  const records = await inDateOrder(input.records, slices);
  const recordDay = (record: PartnerRecord) => dayIndex.get(record.day) ?? -1;
  const recordAt = (record: PartnerRecord) => record.at ?? grid.starts[recordDay(record)]!;

  // 1. By reference: the Fleet reference, or the partner reference of a payout this app sent.
  const byReference = new Map<string, LedgerCandidate[]>();
  for (const entry of [...input.windowEntries, ...input.referencedEntries]) {
    if (slices.due()) await slices.next();
    for (const reference of new Set([entry.reference, entry.partnerReference ?? ''])) {
      if (reference === '') continue;
      const list = byReference.get(reference);
      if (list) list.push(entry);
      else byReference.set(reference, [entry]);
    }
  }
  // Records sharing a reference are taken together when the first of them comes; the rest go on in date order.
  const shared = await sharedReferences(records, byReference, slices);
  const context: GroupContext = { input, slices, used, result, recordDay, recordAt };
  const leftOver = new Set<PartnerRecord>();
  const rest: PartnerRecord[] = [];
  for (const record of records) {
    if (slices.due()) await slices.next();
    const candidates = record.reference === '' ? undefined : byReference.get(record.reference);
    if (!candidates) {
      rest.push(record);
      continue;
    }
    const group = shared.get(record.reference) ?? [record];
    if (group[0] === record) for (const left of await matchGroup(record.reference, group, candidates, context)) leftOver.add(left);
    if (leftOver.has(record)) rest.push(record);
  }

  // 2. The rest by amount, currency and direction (the sign), within the tolerance of days.
  const byAmount = new Map<string, LedgerCandidate[]>();
  for (const entry of input.windowEntries) {
    if (slices.due()) await slices.next();
    const key = `${entry.currency}:${entry.amountMinor}`;
    const list = byAmount.get(key);
    if (list) list.push(entry);
    else byAmount.set(key, [entry]);
  }
  for (const record of rest) {
    if (slices.due()) await slices.next();
    const found = closestByAmount(byAmount.get(`${record.currency}:${record.amountMinor}`) ?? [], record, recordDay(record), input, used);
    if (!found) {
      result.notInLedger.push(record);
      continue;
    }
    used.add(found.key);
    result.matched.push({ record, entry: found, by: 'amount' });
  }

  // 3. What the records lack: unmatched entries inside the records' own days, when the ledger can vouch for them.
  if (input.ledgerComplete) {
    const from = grid.starts[grid.firstPeriodDay]!;
    const before = grid.starts[grid.lastPeriodDay + 1]!;
    for (const entry of input.windowEntries) {
      if (slices.due()) await slices.next();
      if (entry.at >= from && entry.at < before && !used.has(entry.key)) result.notInRecords.push(entry);
    }
  }
  return result;
}

interface GroupContext {
  input: MatchInput;
  slices: Slices;
  used: Set<string>;
  result: MatchResult;
  recordDay: (record: PartnerRecord) => number;
  recordAt: (record: PartnerRecord) => number;
}

/** The references two or more records share (with an entry holding them), each with its records in date order. */
async function sharedReferences(
  records: readonly PartnerRecord[],
  byReference: ReadonlyMap<string, readonly LedgerCandidate[]>,
  slices: Slices,
): Promise<Map<string, PartnerRecord[]>> {
  const counts = new Map<string, number>();
  for (const { reference } of records) {
    if (slices.due()) await slices.next();
    if (reference !== '' && byReference.has(reference)) counts.set(reference, (counts.get(reference) ?? 0) + 1);
  }
  const shared = new Map<string, PartnerRecord[]>();
  for (const record of records) {
    if (slices.due()) await slices.next();
    if ((counts.get(record.reference) ?? 0) < 2) continue;
    const group = shared.get(record.reference);
    if (group) group.push(record);
    else shared.set(record.reference, [record]);
  }
  return shared;
}

/**
 * The records sharing one reference (date order; often one alone) against the entries holding it:
 * (a) each record to the closest unused entry of its own amount and currency; (b) two or more left,
 * in one currency: their sum to the closest entry left of that amount dated within the tolerance of
 * every one of them; (c) else, one entry left for two or more records of one currency: each an
 * amount difference with it, their sum shown; else each record an amount difference with the closest
 * entry left, while any is. Resolves with the records no entry of the reference was left for, for the
 * match by amount.
 */
async function matchGroup(
  reference: string,
  group: readonly PartnerRecord[],
  candidates: readonly LedgerCandidate[],
  context: GroupContext,
): Promise<PartnerRecord[]> {
  const { slices, used, result, recordAt } = context;
  const closest = (record: PartnerRecord, accept: (entry: LedgerCandidate) => boolean) => {
    let best: { distance: number; entry: LedgerCandidate } | undefined;
    for (const entry of candidates) {
      if (used.has(entry.key) || !accept(entry)) continue;
      const option = { distance: Math.abs(entry.at - recordAt(record)), entry };
      if (better(option, best)) best = option;
    }
    return best?.entry;
  };

  const left: PartnerRecord[] = [];
  for (const record of group) {
    if (slices.due()) await slices.next();
    const found = closest(record, (entry) => entry.amountMinor === record.amountMinor && entry.currency === record.currency);
    if (!found) {
      left.push(record);
      continue;
    }
    used.add(found.key);
    result.matched.push({ record, entry: found, by: 'reference' });
  }
  if (left.length === 0) return [];

  const currency = left.every((record) => record.currency === left[0]!.currency) ? left[0]!.currency : undefined;
  const minor = left.reduce((sum, record) => sum + record.amountMinor, 0);
  if (left.length > 1 && currency !== undefined) {
    const found = closest(left[0]!, (entry) => entry.amountMinor === minor && entry.currency === currency && withinTolerance(entry, left, context));
    if (found) {
      used.add(found.key);
      for (const record of left) result.matched.push({ record, entry: found, by: 'sum' });
      result.bySum.push({ reference, entry: found, records: left });
      return [];
    }
  }

  const remaining = candidates.filter((entry) => !used.has(entry.key));
  if (left.length > 1 && currency !== undefined && remaining.length === 1) {
    const [entry] = remaining as [LedgerCandidate];
    used.add(entry.key);
    for (const record of left) result.differences.push({ record, entry, sharedSum: { records: left.length, minor } });
    return [];
  }
  const rest: PartnerRecord[] = [];
  for (const record of left) {
    if (slices.due()) await slices.next();
    const found = remaining.length === 0 ? undefined : closest(record, () => true);
    if (!found) {
      rest.push(record);
      continue;
    }
    used.add(found.key);
    result.differences.push({ record, entry: found });
  }
  return rest;
}

/** Whether the entry's day is within the tolerance of every record's day. */
function withinTolerance(entry: LedgerCandidate, records: readonly PartnerRecord[], context: GroupContext): boolean {
  const day = dayIndexOf(context.input.grid, entry.at);
  if (day < 0) return false;
  const tolerance = context.input.toleranceDays;
  return records.every((record) => {
    const recordDay = context.recordDay(record);
    return recordDay >= 0 && Math.abs(day - recordDay) <= tolerance;
  });
}

/**
 * The records by date, then row, so that the outcome does not hang on the file's order: grouped by
 * day, then each day sorted in a slice of its own.
 */
async function inDateOrder(records: readonly PartnerRecord[], slices: Slices): Promise<PartnerRecord[]> {
  const byDay = new Map<string, PartnerRecord[]>();
  for (const record of records) {
    if (slices.due()) await slices.next();
    const list = byDay.get(record.day);
    if (list) list.push(record);
    else byDay.set(record.day, [record]);
  }
  const ordered: PartnerRecord[] = [];
  for (const day of [...byDay.keys()].sort()) {
    if (slices.due()) await slices.next();
    for (const record of byDay.get(day)!.sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || a.row - b.row)) ordered.push(record);
  }
  return ordered;
}

/** Among `entries` (oldest first) of the record's amount, the best unused one within the tolerance. */
function closestByAmount(
  entries: readonly LedgerCandidate[],
  record: PartnerRecord,
  day: number,
  input: MatchInput,
  used: ReadonlySet<string>,
): LedgerCandidate | undefined {
  if (entries.length === 0 || day < 0) return undefined;
  const { grid, toleranceDays } = input;
  const from = grid.starts[Math.max(0, day - toleranceDays)]!;
  const before = grid.starts[Math.min(grid.days.length, day + toleranceDays + 1)]!;
  // The first entry at or after `from`, by halving.
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (entries[middle]!.at < from) low = middle + 1;
    else high = middle;
  }
  let best: { distance: number; entry: LedgerCandidate } | undefined;
  for (let at = low; at < entries.length && entries[at]!.at < before; at += 1) {
    const entry = entries[at]!;
    if (used.has(entry.key)) continue;
    // With a time, the nearest instant; a day alone, the nearest day.
    const distance = record.at !== undefined ? Math.abs(entry.at - record.at) : Math.abs(dayIndexOf(grid, entry.at) - day);
    const option = { distance, entry };
    if (better(option, best)) best = option;
  }
  return best?.entry;
}
