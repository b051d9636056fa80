/**
 * Word search through the word table (migration 027). A filter whose words are all held by many
 * entries is read from the postings of its rarest word, in list order, a batch at a time, each
 * posting's entry checked against the whole filter: a page stops once it has its rows, a count at
 * MATCH_COUNT_LIMIT + 1 matches. A word alone counts in the index alone, and so does a two-word phrase
 * alone: the entries holding its pair (the two chunks with one space between) match, and only the
 * rarest word's other entries are read. Otherwise a count reads the entries its postings name, at most
 * the rarest word's postings in the filter's date range. Words held by few entries keep the GIN path (reader.ts): their matches are few.
 */
import type { Queryable } from '../store/db.js';
import { filterConditions, placeholder, rangeConditions, whereClause, wordTerms } from './filter-sql.js';
import { MATCH_COUNT_LIMIT, type LedgerFilter } from './types.js';

/** How the reader answers a filter: through ledger_entries' own indexes, or from a word's postings. */
export type SearchPlan = { kind: 'entries' } | WordPlan;

interface WordPlan {
  kind: 'word';
  /** The rarest required word: its postings are walked. */
  word: string;
  /** The filter is this word alone (and a date range): its postings are the matches. */
  alone: boolean;
  /** The filter is one two-word phrase alone: entries holding this pair match, and may be counted without reading them. */
  pair?: string;
}

/** Postings read by the first batch of a page; each next batch reads four times as many, up to COUNT_BATCH. */
const FIRST_PAGE_BATCH = 32;
const COUNT_BATCH = MATCH_COUNT_LIMIT + 1;

/**
 * The plan for a filter: its rarest required word's postings when even that word is held by more than
 * `fewMatches` entries (one index-only count per word, each stopping there), else the entries' indexes.
 */
export async function planSearch(db: Queryable, filter: LedgerFilter, fewMatches: number): Promise<SearchPlan> {
  const { required, phrases } = wordTerms(filter);
  if (required.length === 0) return { kind: 'entries' };
  const { rows } = await db.query<{ word: string; n: string | number }>(
    `SELECT w.word, (SELECT count(*) FROM (SELECT 1 FROM ledger_words p WHERE p.word = w.word LIMIT ${fewMatches + 1}) AS capped) AS n
       FROM unnest($1::text[]) AS w(word)`,
    [required],
  );
  const rarest = rows.map((row) => ({ word: row.word, n: Number(row.n) })).sort((a, b) => a.n - b.n)[0];
  if (!rarest || rarest.n <= fewMatches) return { kind: 'entries' };
  const others = [filter.currency, filter.type, filter.status, filter.direction, filter.minAmount, filter.maxAmount];
  const onlyWords = others.every((value) => value === undefined) && (filter.words ?? []).length === 1;
  const pair = onlyWords && phrases.length === 1 && /^[^ ]+ [^ ]+$/u.test(phrases[0]!) ? phrases[0] : undefined;
  return { kind: 'word', word: rarest.word, alone: onlyWords && phrases.length === 0, ...(pair ? { pair } : {}) };
}

/** How many postings of `token` lie in the filter's range (and after `extra`), counting no further than MATCH_COUNT_LIMIT + 1. */
async function countPostings(db: Queryable, token: string, filter: LedgerFilter, extra: string[] = [], params: unknown[] = []): Promise<number> {
  const conditions = [`word = ${placeholder(params)(token)}`, ...rangeConditions(filter, params), ...extra];
  const { rows } = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (SELECT 1 FROM ledger_words ${whereClause(conditions)} LIMIT ${MATCH_COUNT_LIMIT + 1}) AS capped`,
    params,
  );
  return Number(rows[0]?.n ?? 0);
}

interface Position {
  at: string;
  seq: number;
}

/** Postings of the plan's word in the filter's range, after `from`, in `order`, `size` of them, as the CTE `p`. */
function batch(
  plan: WordPlan,
  filter: LedgerFilter,
  keyset: string[],
  from: Position | undefined,
  order: 'DESC' | 'ASC',
  size: number,
  params: unknown[],
): string {
  const add = placeholder(params);
  const conditions = [`word = ${add(plan.word)}`, ...rangeConditions(filter, params), ...keyset];
  if (from) {
    const [at, seq] = [`${add(from.at)}::timestamptz`, add(from.seq)];
    const operator = order === 'DESC' ? '<' : '>';
    conditions.push(`entry_at ${operator}= ${at}`, `(entry_at, seq) ${operator} (${at}, ${seq})`);
  }
  return `WITH p AS MATERIALIZED (SELECT entry_at, seq FROM ledger_words ${whereClause(conditions)} ORDER BY entry_at ${order}, seq ${order} LIMIT ${size})`;
}

/** The entry a posting names when it matches the whole filter; OFFSET 0 keeps it a probe by seq per posting. */
const matching = (columns: string, filter: LedgerFilter, params: unknown[]) =>
  `(SELECT ${columns} FROM ledger_entries ${whereClause([`seq = p.seq`, ...filterConditions(filter, params)])} OFFSET 0)`;

/** How many entries match, counting no further than MATCH_COUNT_LIMIT + 1. */
export async function countByWord(db: Queryable, plan: WordPlan, filter: LedgerFilter): Promise<number> {
  if (plan.alone) return countPostings(db, plan.word, filter);
  // Entries holding the pair match, and hold the rarest word too: only the others are read, found
  // by leaving out the pair's postings (at most 10,000 here) from the word's.
  const held = plan.pair === undefined ? 0 : await countPostings(db, plan.pair, filter);
  if (held > MATCH_COUNT_LIMIT) return held;
  // Every entry holding the rarest word holds the pair: nothing left to read.
  if (plan.pair !== undefined && (await countPostings(db, plan.word, filter)) === held) return held;
  let counted = held;
  let from: Position | undefined;
  for (;;) {
    const params: unknown[] = [];
    const source = batch(plan, filter, [], from, 'DESC', COUNT_BATCH, params);
    const unpaired =
      plan.pair === undefined
        ? ''
        : ` WHERE p.seq NOT IN (SELECT seq FROM ledger_words ${whereClause([`word = ${placeholder(params)(plan.pair)}`, ...rangeConditions(filter, params)])})`;
    const { rows } = await db.query<{ postings: string | number; matches: string | number; at: string | null; seq: string | number | null }>(
      `${source}
       SELECT (SELECT count(*) FROM p) AS postings,
              (SELECT count(*) FROM p CROSS JOIN LATERAL ${matching('1', filter, params)} AS e${unpaired}) AS matches,
              last.at, last.seq
         FROM (SELECT 1) AS one LEFT JOIN (SELECT entry_at::text AS at, seq FROM p ORDER BY entry_at, seq LIMIT 1) AS last ON true`,
      params,
    );
    const row = rows[0];
    counted += Number(row?.matches ?? 0);
    if (counted > MATCH_COUNT_LIMIT || Number(row?.postings ?? 0) < COUNT_BATCH || !row?.at) return Math.min(counted, MATCH_COUNT_LIMIT + 1);
    from = { at: row.at, seq: Number(row.seq) };
  }
}

/**
 * One page of matches read from the word's postings, newest or oldest first, after the keyset
 * conditions (over entry_at and seq): `take` rows after `offset` matches, batch by batch.
 */
export async function pageByWord<Row>(
  db: Queryable,
  plan: WordPlan,
  query: { filter: LedgerFilter; keyset: string[]; params: unknown[]; newestFirst: boolean; columns: string; take: number; offset: number },
): Promise<Row[]> {
  const { filter, newestFirst, columns, take, offset } = query;
  const order = newestFirst ? 'DESC' : 'ASC';
  const found: Row[] = [];
  let skip = offset;
  let from: Position | undefined;
  let size = Math.min(Math.max(FIRST_PAGE_BATCH, (offset + take) * 2), COUNT_BATCH);
  for (;;) {
    // The keyset's placeholders are numbered in the caller's params; each batch starts from a copy.
    const params = [...query.params];
    const { rows } = await db.query<Row & { posting_at: string; posting_seq: string | number; hit: boolean }>(
      `${batch(plan, filter, query.keyset, from, order, size, params)}
       SELECT p.entry_at::text AS posting_at, p.seq AS posting_seq, e.seq IS NOT NULL AS hit, e.*
         FROM p LEFT JOIN LATERAL ${matching(columns, filter, params)} AS e ON true
        ORDER BY p.entry_at ${order}, p.seq ${order}`,
      params,
    );
    for (const row of rows) {
      if (!row.hit) continue;
      if (skip > 0) skip -= 1;
      else found.push(row);
    }
    const last = rows.at(-1);
    if (found.length >= take || rows.length < size || !last) return found.slice(0, take);
    from = { at: last.posting_at, seq: Number(last.posting_seq) };
    size = Math.min(size * 4, COUNT_BATCH);
  }
}
