/**
 * Answers the app's questions from the stored ledger (`LedgerReader`): pages of matches newest
 * first with their total, counts, oldest-first streams read by keyset, and the sync's progress.
 *
 * A page costs the same at any depth and with any filter (docs/performance.md, "Ledger"): it is
 * read by keyset from where the page shown ended, in list order through an index that matches the
 * filter; its total is counted over at most MATCH_COUNT_LIMIT + 1 matches; the last page is read
 * from the other end. A filter whose words are all frequent is read from the word table instead
 * (word-search.ts), by the same positions.
 */
import type { Queryable } from '../store/db.js';
import { filterConditions, whereClause } from './filter-sql.js';
import { countByWord, pageByWord, planSearch } from './word-search.js';
import { readSyncState } from './store.js';
import { MATCH_COUNT_LIMIT, type LedgerEntry, type LedgerFilter, type LedgerPage, type LedgerReader, type LedgerStatus, type PagePosition } from './types.js';

const DEFAULT_BATCH = 500;
/** Up to this many matches, a page is read by sorting the matches rather than by walking the date index. */
const FEW_MATCHES = 2_000;
/** The list's order: newest first, and within one instant the later stored first (as the API lists them). */
const NEWEST_FIRST = 'ORDER BY entry_at DESC, seq DESC';
const OLDEST_FIRST = 'ORDER BY entry_at ASC, seq ASC';

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

interface Cursor {
  /** entry_at as Postgres wrote it (exact to the microsecond), and the entry's seq. */
  at: string;
  seq: number;
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

export class StoredLedgerReader implements LedgerReader {
  constructor(private readonly db: Queryable) {}

  async find(request: LedgerFilter, page: PagePosition & { limit: number }): Promise<LedgerPage> {
    // A first read is pinned to the newest entry stored now, so its later pages read the same list.
    const [storedUpTo, plan] = await Promise.all([request.storedUpTo ?? this.newestStored(), planSearch(this.db, request, FEW_MATCHES)]);
    const filter = { ...request, storedUpTo };
    const limit = Math.max(0, Math.floor(page.limit));
    const [counted, newer] = await Promise.all([
      plan.kind === 'word' ? countByWord(this.db, plan, filter) : this.countUpTo(filter),
      request.storedUpTo === undefined ? 0 : this.countNewer(request, request.storedUpTo),
    ]);
    const totalCapped = counted > MATCH_COUNT_LIMIT;
    const total = Math.min(counted, MATCH_COUNT_LIMIT);
    const empty = (hasPrevious: boolean): LedgerPage => ({ entries: [], total, totalCapped, hasPrevious, hasNext: false, storedUpTo, newer });
    if (counted === 0 || limit === 0) return empty(false);

    const params: unknown[] = [];
    const keyset: string[] = [];
    // Read in list order (newest first) or, towards the top or from the end, oldest first and turned round.
    let newestFirst = true;
    let take = limit + 1;
    let offset = 0;
    let known: { hasPrevious?: boolean; hasNext?: boolean };
    const position = await this.resolve(page);
    if ('offset' in position) {
      offset = Math.max(0, Math.floor(position.offset));
      if (!totalCapped && offset >= total) return empty(true);
      known = { hasPrevious: offset > 0 };
    } else if ('after' in position || 'before' in position) {
      const older = 'after' in position;
      const cursor = older ? position.after : position.before;
      params.push(cursor.at, cursor.seq);
      const [at, seq] = [`$${params.length - 1}::timestamptz`, `$${params.length}`];
      const operator = older ? '<' : '>';
      // The first comparison bounds the index range; the row comparison settles entries of the same instant.
      keyset.push(`entry_at ${operator}= ${at}`, `(entry_at, seq) ${operator} (${at}, ${seq})`);
      newestFirst = older;
      known = older ? { hasPrevious: true } : { hasNext: true };
    } else {
      newestFirst = false;
      // With an exact total the last page holds what is left after the full pages, as page numbers count.
      if (!totalCapped) take = total - Math.floor((total - 1) / limit) * limit;
      known = totalCapped ? { hasNext: false } : { hasNext: false, hasPrevious: total > take };
    }
    const read = { filter, keyset, params, newestFirst, take, offset };
    const rows =
      plan.kind === 'word' ? await pageByWord<EntryRow>(this.db, plan, { ...read, columns: ENTRY_COLUMNS }) : await this.pageByEntries(read, counted);
    const more = rows.length > limit && take > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    if (!newestFirst) pageRows.reverse();
    const entries = pageRows.map(toLedgerEntry);
    const hasPrevious = known.hasPrevious ?? more;
    const hasNext = known.hasNext ?? more;
    const first = pageRows[0];
    const last = pageRows.at(-1);
    const bounds = first && last ? { first: Number(first.seq), last: Number(last.seq) } : undefined;
    return { entries, total, totalCapped, hasPrevious, hasNext, ...(bounds ? { bounds } : {}), storedUpTo, newer };
  }

  /** A page read through ledger_entries' own indexes (the filter has no word, or its words are rare). */
  private async pageByEntries(
    read: { filter: LedgerFilter; keyset: string[]; params: unknown[]; newestFirst: boolean; take: number; offset: number },
    counted: number,
  ): Promise<EntryRow[]> {
    const { params } = read;
    const where = whereClause([...read.keyset, ...filterConditions(read.filter, params)]);
    const order = read.newestFirst ? NEWEST_FIRST : OLDEST_FIRST;
    const window = `LIMIT ${read.take}${read.offset > 0 ? ` OFFSET ${read.offset}` : ''}`;
    // Few matches: take them through the filter's own indexes (words, amounts, currency) and sort
    // them, rather than let the planner walk the date index hoping to meet matches early, which for
    // a rare word reads the whole table.
    const sql =
      counted <= FEW_MATCHES
        ? `WITH matches AS MATERIALIZED (SELECT ${ENTRY_COLUMNS} FROM ledger_entries ${where}) SELECT * FROM matches ${order} ${window}`
        : `SELECT ${ENTRY_COLUMNS} FROM ledger_entries ${where} ${order} ${window}`;
    const { rows } = await this.db.query<EntryRow>(sql, params);
    return rows;
  }

  /** A keyset position's entry as its exact instant and seq; an entry no longer stored reads as the first page. */
  private async resolve(page: PagePosition): Promise<{ offset: number } | { after: Cursor } | { before: Cursor } | { last: true }> {
    if (!('after' in page) && !('before' in page)) return page;
    const seq = 'after' in page ? page.after : page.before;
    const { rows } = await this.db.query<{ at: string }>('SELECT entry_at::text AS at FROM ledger_entries WHERE seq = $1', [seq]);
    const at = rows[0]?.at;
    if (at === undefined) return { offset: 0 };
    return 'after' in page ? { after: { at, seq } } : { before: { at, seq } };
  }

  private async newestStored(): Promise<number> {
    const { rows } = await this.db.query<{ seq: string | number | null }>('SELECT max(seq) AS seq FROM ledger_entries');
    return Number(rows[0]?.seq ?? 0);
  }

  /** How many entries match, counting no further than MATCH_COUNT_LIMIT + 1: the scan stops there. */
  private async countUpTo(filter: LedgerFilter, extra: string[] = [], extraParams: unknown[] = []): Promise<number> {
    const params: unknown[] = [];
    const conditions = filterConditions(filter, params);
    for (const [index, condition] of extra.entries()) {
      params.push(extraParams[index]);
      conditions.push(condition.replace('?', `$${params.length}`));
    }
    const { rows } = await this.db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ledger_entries ${whereClause(conditions)} LIMIT ${MATCH_COUNT_LIMIT + 1}) AS capped`,
      params,
    );
    return Number(rows[0]?.n ?? 0);
  }

  private countNewer(filter: LedgerFilter, storedUpTo: number): Promise<number> {
    return this.countUpTo({ ...filter, storedUpTo: undefined }, ['seq > ?'], [storedUpTo]);
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
    // Kept by migration 026's triggers: exact, without counting the table.
    const [state, stored] = await Promise.all([
      readSyncState(this.db),
      this.db.query<{ n: string | number }>('SELECT entries_stored AS n FROM ledger_sync_state WHERE id = 1'),
    ]);
    const loaded = Number(stored.rows[0]?.n ?? 0);
    return {
      loaded,
      historyComplete: state.historyComplete,
      estimatedTotal: state.historyComplete ? undefined : state.estimatedTotal === undefined ? undefined : Math.max(state.estimatedTotal, loaded),
      upToDateSince: state.historyComplete ? state.upToDateSince : undefined,
      lastPollAt: state.lastPollAt,
    };
  }
}
