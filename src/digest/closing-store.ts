/**
 * The stored closing balances of finished days (table `digest_closing_balances`), and the ledger
 * figures their anchor and corrections are made of. Every sum is taken in SQL over exact minor units.
 */
import type { Queryable } from '../store/db.js';
import type { ClosingBalance } from './types.js';

/** A day in a time zone, and the instant it ends. */
export interface ClosingDay {
  day: string;
  timeZone: string;
  end: Date;
}

/** A balance read, when the ledger held every entry of it: the ledger's last sequence number then. */
export interface BalanceAnchor {
  /** Per currency, exact minor units. */
  balancesMinor: Map<string, number>;
  /** When the read was sent: entries dated before it are in the balance. */
  readStart: Date;
  ledgerSeq: number;
}

const COMPLETED = "upper(e.status) = 'COMPLETED'";

/** The newest sequence number the ledger has stored (0 when empty). */
export async function lastLedgerSeq(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ seq: string | number | null }>('SELECT max(seq) AS seq FROM ledger_entries');
  return Number(rows[0]?.seq ?? 0);
}

/** How many entries stored up to `ledgerSeq` are dated from `from` to `to`, both included. */
export async function entriesDatedWithin(db: Queryable, from: Date, to: Date, ledgerSeq: number): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM ledger_entries WHERE entry_at >= $1 AND entry_at <= $2 AND seq <= $3', [
    from.toISOString(),
    to.toISOString(),
    ledgerSeq,
  ]);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Stores the day's closing balance of each currency of `anchor`: the balance less the Completed
 * entries dated from the day's end to the read, among those stored by then. A currency already stored
 * (another replica was first) keeps its figure.
 */
export async function storeClosings(db: Queryable, day: ClosingDay, anchor: BalanceAnchor, computedAt: Date): Promise<void> {
  if (anchor.balancesMinor.size === 0) return;
  const balances = [...anchor.balancesMinor].map(([currency, minor]) => ({ currency, minor }));
  await db.query(
    `INSERT INTO digest_closing_balances (day, time_zone, currency, closing_minor, balance_minor, balance_read_at, ledger_seq, computed_at)
     SELECT $1, $2, b.currency,
            b.minor - coalesce((SELECT sum(e.amount_minor) FROM ledger_entries e
                                 WHERE e.currency = b.currency AND ${COMPLETED} AND e.entry_at >= $3 AND e.entry_at < $4 AND e.seq <= $5), 0),
            b.minor, $4, $5, $6
       FROM jsonb_to_recordset($7::jsonb) AS b(currency text, minor bigint)
     ON CONFLICT (tenant_id, day, time_zone, currency) DO NOTHING`,
    [day.day, day.timeZone, day.end.toISOString(), anchor.readStart.toISOString(), anchor.ledgerSeq, computedAt.toISOString(), JSON.stringify(balances)],
  );
}

/**
 * The stored closing balances of the day, each with the Completed entries stored after its anchor
 * and dated before the day's end added: a correction, which keeps the figure first stored.
 */
export async function storedClosings(db: Queryable, day: ClosingDay): Promise<Map<string, ClosingBalance & { known: true }>> {
  const { rows } = await db.query<{ currency: string; closing_minor: string | number; late_minor: string | number | null; late_entries: string | number }>(
    `SELECT c.currency, c.closing_minor, late.minor AS late_minor, late.entries AS late_entries
       FROM digest_closing_balances c
       CROSS JOIN LATERAL (SELECT sum(e.amount_minor) AS minor, count(*) AS entries FROM ledger_entries e
                            WHERE e.currency = c.currency AND e.seq > c.ledger_seq AND e.entry_at < $3 AND ${COMPLETED}) late
      WHERE c.day = $1 AND c.time_zone = $2`,
    [day.day, day.timeZone, day.end.toISOString()],
  );
  const closings = new Map<string, ClosingBalance & { known: true }>();
  for (const row of rows) {
    const first = Number(row.closing_minor);
    const lateEntries = Number(row.late_entries);
    closings.set(
      row.currency,
      lateEntries === 0
        ? { known: true, minor: first }
        : { known: true, minor: first + Number(row.late_minor ?? 0), correction: { previousMinor: first, lateEntries } },
    );
  }
  return closings;
}
