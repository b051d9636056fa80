/**
 * The payouts this app sent, found by the reference of the transaction they made (kept as
 * `transaction_id` when a payout completes), with who requested and who approved each: what the
 * ledger export adds to a transaction's row.
 */
import type { Queryable } from '../store/db.js';

export interface SentPayout {
  requestId: string;
  requestedBy: string;
  /** Approvals that counted (revoked ones left out), in the order they were given. */
  approvedBy: string[];
}

export interface SentPayoutLookup {
  byTransactionReferences(references: readonly string[]): Promise<ReadonlyMap<string, SentPayout>>;
}

interface SentPayoutRow {
  id: string;
  transaction_id: string;
  requested_by: string;
  approvers: string | null;
}

export function sentPayoutLookup(db: Queryable): SentPayoutLookup {
  return {
    async byTransactionReferences(references) {
      const found = new Map<string, SentPayout>();
      if (references.length === 0) return found;
      // string_agg rather than array_agg: both drivers return text alike. User ids hold no spaces.
      const { rows } = await db.query<SentPayoutRow>(
        `SELECT r.id, r.transaction_id, r.requested_by,
                string_agg(a.user_id, ' ' ORDER BY a.approved_at, a.user_id) FILTER (WHERE a.revoked_at IS NULL) AS approvers
           FROM payout_requests r LEFT JOIN payout_approvals a ON a.request_id = r.id
          WHERE r.transaction_id = ANY($1::text[])
          GROUP BY r.id, r.transaction_id, r.requested_by
          ORDER BY r.requested_at, r.id`,
        [[...references]],
      );
      // References are not promised unique across requests; the first request to claim one keeps it.
      for (const row of rows) {
        if (found.has(row.transaction_id)) continue;
        found.set(row.transaction_id, {
          requestId: row.id,
          requestedBy: row.requested_by,
          approvedBy: row.approvers ? row.approvers.split(' ') : [],
        });
      }
      return found;
    },
  };
}
