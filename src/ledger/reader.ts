/**
 * Answers the app's questions from the stored ledger (`LedgerReader`): pages of matches newest
 * first with their total, counts, oldest-first streams read by keyset, and the sync's progress.
 */
import type { Queryable } from '../store/db.js';
import { normaliseWord, searchWords } from './identity.js';
import { readSyncState } from './store.js';
import type { LedgerEntry, LedgerFilter, LedgerPage, LedgerReader, LedgerStatus } from './types.js';

const DECIMAL = /^\d+(\.\d+)?$/;
const DEFAULT_BATCH = 500;
/** Up to this many matches, a page is read by sorting the matches rather than by walking the date index. */
const FEW_MATCHES = 5_000;

interface EntryRow {
  seq: string | number;
  entry_key: string;
  reference: string;
  type: string;
  status: string;
  amount_minor: string | number | bigint;
  currency: string;
  description: string;
  date_text: string;
  entry_at: Date | string;
  first_seen_at: Date | string;
  late: boolean;
}

const ENTRY_COLUMNS = 'seq, entry_key, reference, type, status, amount_minor, currency, description, date_text, entry_at, first_seen_at, late';

function toLedgerEntry(row: EntryRow): LedgerEntry {
  return {
    key: row.entry_key,
    reference: row.reference,
    type: row.type,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    description: row.description,
    date: row.date_text,
    status: row.status,
    firstSeenAt: new Date(row.first_seen_at),
    late: row.late,
  };
}

/** A filter as SQL conditions over ledger_entries, with their parameters numbered from `params.length + 1`. */
function filterConditions(filter: LedgerFilter, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.currency !== undefined) where.push(`currency = ${add(filter.currency.toUpperCase())}`);
  if (filter.type !== undefined) where.push(`upper(type) = ${add(filter.type.toUpperCase())}`);
  if (filter.status !== undefined) where.push(`upper(status) = ${add(filter.status.toUpperCase())}`);
  if (filter.direction === 'in') where.push('amount_minor > 0');
  if (filter.direction === 'out') where.push('amount_minor < 0');
  if (filter.since !== undefined) where.push(`entry_at >= ${add(filter.since.toISOString())}::timestamptz`);
  if (filter.before !== undefined) where.push(`entry_at < ${add(filter.before.toISOString())}::timestamptz`);
  for (const [bound, operator] of [[filter.minAmount, '>='], [filter.maxAmount, '<=']] as const) {
    if (bound === undefined) continue;
    if (!DECIMAL.test(bound)) throw new RangeError(`not a decimal amount: ${JSON.stringify(bound)}`);
    where.push(`abs(amount) ${operator} ${add(bound)}::numeric`);
  }
  const required = new Set<string>();
  for (const raw of filter.words ?? []) {
    // The parser hands phrases over without their quotes; quotes left on are not part of the text.
    const word = raw.trim().replace(/^"(.*)"$/su, '$1');
    const single = normaliseWord(word);
    const isPhrase = /\s/u.test(word.trim());
    if (!isPhrase && single !== '') {
      required.add(single);
      continue;
    }
    // A phrase (or a word of punctuation only): its words narrow through the index, the text itself is checked as written.
    for (const piece of searchWords(word)) required.add(piece);
    const text = word.trim().toLowerCase();
    if (text !== '') where.push(`strpos(lower(reference || ' ' || description), ${add(text)}) > 0`);
  }
  if (required.size > 0) where.push(`words @> ${add([...required])}::text[]`);
  if (filter.storedUpTo !== undefined) where.push(`seq <= ${add(filter.storedUpTo)}`);
  return where;
}

const whereClause = (conditions: string[]) => (conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '');

export class StoredLedgerReader implements LedgerReader {
  constructor(private readonly db: Queryable) {}

  async find(request: LedgerFilter, page: { offset: number; limit: number }): Promise<LedgerPage> {
    // A first read is pinned to the newest entry stored now, so its later pages read the same list.
    const storedUpTo = request.storedUpTo ?? (await this.newestStored());
    const filter = { ...request, storedUpTo };
    const params: unknown[] = [];
    const where = whereClause(filterConditions(filter, params));
    const limit = Math.max(0, Math.floor(page.limit));
    const offset = Math.max(0, Math.floor(page.offset));
    const [total, newer] = await Promise.all([
      this.count(filter),
      request.storedUpTo === undefined ? 0 : this.countNewer(request, request.storedUpTo),
    ]);
    if (total === 0 || offset >= total) return { entries: [], total, storedUpTo, newer };
    // Few matches: take them through the filter's own indexes (words, currency) and sort them, rather
    // than let the planner walk the date index hoping to meet matches early, which for a rare word
    // reads the whole table.
    const sql = total <= FEW_MATCHES
      ? `WITH matches AS MATERIALIZED (SELECT ${ENTRY_COLUMNS} FROM ledger_entries ${where})
         SELECT * FROM matches ORDER BY entry_at DESC, entry_key DESC LIMIT ${limit} OFFSET ${offset}`
      : `SELECT ${ENTRY_COLUMNS} FROM ledger_entries ${where} ORDER BY entry_at DESC, entry_key DESC LIMIT ${limit} OFFSET ${offset}`;
    const { rows } = await this.db.query<EntryRow>(sql, params);
    return { entries: rows.map(toLedgerEntry), total, storedUpTo, newer };
  }

  private async newestStored(): Promise<number> {
    const { rows } = await this.db.query<{ seq: string | number | null }>('SELECT max(seq) AS seq FROM ledger_entries');
    return Number(rows[0]?.seq ?? 0);
  }

  private async countNewer(filter: LedgerFilter, storedUpTo: number): Promise<number> {
    const params: unknown[] = [];
    const conditions = filterConditions({ ...filter, storedUpTo: undefined }, params);
    params.push(storedUpTo);
    conditions.push(`seq > $${params.length}`);
    const { rows } = await this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ledger_entries ${whereClause(conditions)}`, params);
    return Number(rows[0]?.n ?? 0);
  }

  async count(filter: LedgerFilter): Promise<number> {
    const params: unknown[] = [];
    const where = whereClause(filterConditions(filter, params));
    const { rows } = await this.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ledger_entries ${where}`, params);
    return Number(rows[0]?.n ?? 0);
  }

  async *stream(filter: LedgerFilter, options: { batchSize?: number; signal?: AbortSignal } = {}): AsyncIterable<LedgerEntry> {
    const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH));
    let after: { at: string; key: string } | undefined;
    for (;;) {
      options.signal?.throwIfAborted();
      const params: unknown[] = [];
      const conditions = filterConditions(filter, params);
      if (after) {
        params.push(after.at, after.key);
        conditions.push(`(entry_at, entry_key) > ($${params.length - 1}::timestamptz, $${params.length})`);
      }
      const { rows } = await this.db.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS}, entry_at::text AS entry_at_exact FROM ledger_entries ${whereClause(conditions)}
          ORDER BY entry_at, entry_key LIMIT ${batchSize}`,
        params,
      );
      for (const row of rows) yield toLedgerEntry(row);
      const last = rows.at(-1) as (EntryRow & { entry_at_exact: string }) | undefined;
      if (!last || rows.length < batchSize) return;
      after = { at: last.entry_at_exact, key: last.entry_key };
    }
  }

  async status(): Promise<LedgerStatus> {
    const [state, loaded] = await Promise.all([readSyncState(this.db), this.count({})]);
    return {
      loaded,
      historyComplete: state.historyComplete,
      estimatedTotal: state.historyComplete ? undefined : state.estimatedTotal === undefined ? undefined : Math.max(state.estimatedTotal, loaded),
      upToDateSince: state.historyComplete ? state.upToDateSince : undefined,
      lastPollAt: state.lastPollAt,
    };
  }
}
