/**
 * SQL for the likely matches proposed for an unknown payout: each entry proposed once, at most one
 * waiting at a time (a partial unique index), and the approver's answer kept.
 */
import type { Queryable } from '../store/db.js';
import type { LikelyMatch } from './model.js';
import { parseDetails, toDate, type Timestamp } from './rows.js';

/** The entry fields kept for a likely match, as the transaction list gave them. */
export type LikelyMatchEntry = Omit<LikelyMatch, 'id' | 'proposedAt'>;

/**
 * Proposes an entry as a likely match; false when it was proposed or decided before, or another
 * proposal still waits (the partial unique index allows one).
 */
export async function proposeLikelyMatch(q: Queryable, requestId: string, matchId: string, entry: LikelyMatchEntry, at: Date): Promise<boolean> {
  const { rowCount } = await q.query(
    `INSERT INTO payout_likely_matches (request_id, match_id, entry, status, proposed_at) VALUES ($1, $2, $3::jsonb, 'proposed', $4)
     ON CONFLICT DO NOTHING`,
    [requestId, matchId, JSON.stringify(entry), at],
  );
  return rowCount > 0;
}

/** Confirms or rejects the proposal `matchId`; false when it is not (or no longer) the one proposed. */
export async function decideLikelyMatch(
  q: Queryable,
  decision: { requestId: string; matchId: string; status: 'confirmed' | 'rejected'; userId: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE payout_likely_matches SET status = $3, decided_by = $4, decided_at = $5
     WHERE request_id = $1 AND match_id = $2 AND status = 'proposed'`,
    [decision.requestId, decision.matchId, decision.status, decision.userId, decision.at],
  );
  return rowCount > 0;
}

/** What became of one proposal, if it exists. */
export async function likelyMatchStatus(q: Queryable, requestId: string, matchId: string): Promise<'proposed' | 'confirmed' | 'rejected' | undefined> {
  const { rows } = await q.query<{ status: 'proposed' | 'confirmed' | 'rejected' }>(
    'SELECT status FROM payout_likely_matches WHERE request_id = $1 AND match_id = $2',
    [requestId, matchId],
  );
  return rows[0]?.status;
}

/** Entries already proposed for this request (whatever the answer): never proposed twice. */
export async function listProposedMatchIds(q: Queryable, requestId: string): Promise<Set<string>> {
  const { rows } = await q.query<{ match_id: string }>('SELECT match_id FROM payout_likely_matches WHERE request_id = $1', [requestId]);
  return new Set(rows.map((row) => row.match_id));
}

/** The proposal still waiting for an answer, if any. */
export async function findProposedMatch(q: Queryable, requestId: string): Promise<LikelyMatch | undefined> {
  const { rows } = await q.query<{ match_id: string; entry: unknown; proposed_at: Timestamp }>(
    "SELECT match_id, entry, proposed_at FROM payout_likely_matches WHERE request_id = $1 AND status = 'proposed'",
    [requestId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const entry = parseDetails(row.entry);
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    id: row.match_id,
    reference: text(entry.reference),
    date: text(entry.date),
    amount: Number(entry.amount),
    currency: text(entry.currency),
    description: text(entry.description),
    proposedAt: toDate(row.proposed_at),
  };
}
