/**
 * The ledger as the records check reads it, through bounded, indexed queries: the entries of a range
 * of instants page by page (keyset on the date index), entries by reference in batches (the
 * reference index of migration 022, and the partner references of this app's payouts), the
 * currencies the account holds, and whether the ledger can vouch for a period.
 */
import type { Queryable } from '../store/db.js';
import { readSyncState } from '../ledger/store.js';
import type { LedgerCandidate } from './match.js';

const PAGE = 1_000;
const REFERENCE_BATCH = 1_000;

interface CandidateRow {
  entry_key: string;
  reference: string;
  amount_minor: string | number;
  currency: string;
  date_text: string;
  description: string;
  entry_at: Date | string;
  entry_at_exact: string;
  partner_reference: string | null;
}

// The partner reference of the first request that claimed the transaction (as the export's join).
const CANDIDATE_COLUMNS = `e.entry_key, e.reference, e.amount_minor, e.currency, e.date_text, e.description, e.entry_at,
  e.entry_at::text AS entry_at_exact,
  (SELECT p.reference FROM payout_requests p WHERE p.transaction_id = e.reference ORDER BY p.requested_at, p.id LIMIT 1) AS partner_reference`;

function toCandidate(row: CandidateRow): LedgerCandidate {
  return {
    key: row.entry_key,
    reference: row.reference,
    partnerReference: row.partner_reference ?? undefined,
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    at: new Date(row.entry_at).getTime(),
    date: row.date_text,
    description: row.description,
  };
}

/** Every entry dated in [from, before), oldest first, read a page at a time. */
export async function entriesBetween(db: Queryable, from: Date, before: Date): Promise<LedgerCandidate[]> {
  const entries: LedgerCandidate[] = [];
  let after: { at: string; key: string } | undefined;
  for (;;) {
    const params: unknown[] = [from.toISOString(), before.toISOString()];
    let keyset = '';
    if (after) {
      params.push(after.at, after.key);
      keyset = 'AND (e.entry_at, e.entry_key) > ($3::timestamptz, $4)';
    }
    const { rows } = await db.query<CandidateRow>(
      `SELECT ${CANDIDATE_COLUMNS} FROM ledger_entries e
        WHERE e.entry_at >= $1::timestamptz AND e.entry_at < $2::timestamptz ${keyset}
        ORDER BY e.entry_at, e.entry_key LIMIT ${PAGE}`,
      params,
    );
    for (const row of rows) entries.push(toCandidate(row));
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return entries;
    after = { at: last.entry_at_exact, key: last.entry_key };
  }
}

/**
 * Entries outside [from, before) whose Fleet reference is one of `references`, or which are the
 * transaction of a payout this app sent with one of them as its partner reference.
 */
export async function entriesByReference(db: Queryable, references: readonly string[], from: Date, before: Date): Promise<LedgerCandidate[]> {
  const found = new Map<string, LedgerCandidate>();
  const outside = '(e.entry_at < $2::timestamptz OR e.entry_at >= $3::timestamptz)';
  for (let at = 0; at < references.length; at += REFERENCE_BATCH) {
    const batch = references.slice(at, at + REFERENCE_BATCH);
    // Two index lookups joined by UNION: an OR of the two would read the whole ledger.
    const { rows } = await db.query<CandidateRow>(
      `SELECT ${CANDIDATE_COLUMNS} FROM ledger_entries e WHERE e.reference = ANY($1::text[]) AND ${outside}
       UNION ALL
       SELECT ${CANDIDATE_COLUMNS} FROM payout_requests r JOIN ledger_entries e ON e.reference = r.transaction_id
        WHERE r.reference = ANY($1::text[]) AND ${outside}`,
      [batch, from.toISOString(), before.toISOString()],
    );
    for (const row of rows) found.set(row.entry_key, toCandidate(row));
  }
  return [...found.values()].sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : 1));
}

/** The currencies the ledger holds, by skipping along the currency index (one probe per currency). */
export async function ledgerCurrencies(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ currency: string }>(
    `WITH RECURSIVE found AS (
       (SELECT currency FROM ledger_entries ORDER BY currency LIMIT 1)
       UNION ALL
       SELECT (SELECT e.currency FROM ledger_entries e WHERE e.currency > found.currency ORDER BY e.currency LIMIT 1)
         FROM found WHERE found.currency IS NOT NULL
     )
     SELECT currency FROM found WHERE currency IS NOT NULL`,
  );
  return rows.map((row) => row.currency);
}

/** Why the ledger cannot vouch for a period: its sync is behind, or it does not hold that far back yet. */
export type LedgerGap = 'not_polled' | 'behind' | 'history';

/**
 * Whether the ledger holds every entry of [periodStart, periodEnd): polled lately (or since the
 * period ended), and its history loaded at least back to the period's start.
 */
export async function ledgerGapFor(db: Queryable, period: { start: Date; end: Date }, now: Date, staleAfterMs: number): Promise<LedgerGap | undefined> {
  const state = await readSyncState(db);
  if (!state.lastPollAt) return 'not_polled';
  const polledAt = state.lastPollAt.getTime();
  if (polledAt < period.end.getTime() && now.getTime() - polledAt > staleAfterMs) return 'behind';
  if (!state.historyComplete) {
    const { rows } = await db.query<{ oldest: Date | string | null }>('SELECT min(entry_at) AS oldest FROM ledger_entries');
    const oldest = rows[0]?.oldest;
    if (oldest === null || oldest === undefined || new Date(oldest).getTime() > period.start.getTime()) return 'history';
  }
  return undefined;
}
