/** The digest's world for tests: ledger entries and payout rows written straight into a store. */
import type { Transaction } from '../../src/fleet/schemas.js';
import { identifyPage } from '../../src/ledger/identity.js';
import { insertEntries } from '../../src/ledger/store.js';
import type { Db } from '../../src/store/db.js';
import { resetLedger } from './ledger-doubles.js';
import { resetPayouts } from './payout-doubles.js';

export async function resetDigestWorld(db: Db): Promise<void> {
  await resetLedger(db);
  await resetPayouts(db);
  await db.query('DELETE FROM digest_posts');
  await db.query('DELETE FROM digest_state');
  await db.query('DELETE FROM digest_closing_balances');
}

/** One ledger entry; `amount` is the API's signed decimal. */
export function entry(date: string, amount: number, currency: string, overrides: Partial<Transaction> = {}): Transaction {
  return {
    reference: `REF-${date}-${amount}-${currency}`,
    type: 'PAYMENT',
    amount,
    currency,
    description: 'test entry',
    date,
    status: 'Completed',
    ...overrides,
  };
}

export async function storeEntries(db: Db, entries: Transaction[]): Promise<void> {
  await insertEntries(db, identifyPage([...entries].reverse()), { firstSeenAt: new Date(), markLate: false });
}

/** The ledger's history walked and polled at `polledAt`. */
export async function ledgerComplete(db: Db, polledAt: Date): Promise<void> {
  await db.query('UPDATE ledger_sync_state SET history_complete = true, history_completed_at = $1, up_to_date_since = $1, last_poll_at = $1 WHERE id = 1', [
    polledAt.toISOString(),
  ]);
}

let sequence = 0;

/** A payout request in `state`, with its audit events at the given instants. */
export async function storePayout(
  db: Db,
  row: { state: string; amountMinor: number; currency: string; requestedAt: string; id?: string },
  events: [event: string, at: string][] = [],
): Promise<string> {
  sequence += 1;
  const id = row.id ?? `PR-DG${String(sequence).padStart(4, '0')}`;
  await db.query(
    `INSERT INTO payout_requests (id, kind, recipient_name, country_code, phone, operator, amount_minor, currency, reference, requested_by,
       requested_at, expires_at, state, required_approvals, updated_at, recipient_key)
     VALUES ($1, 'mobile_money', 'Amani', 'CD', '243812345678', 'VODACOM_MPESA', $2, $3, $4, 'UREQUESTER', $5, $6, $7, 1, $5, 'mm:243812345678')`,
    [id, row.amountMinor, row.currency, `DG-${id}`, row.requestedAt, new Date(Date.parse(row.requestedAt) + 24 * 3_600_000).toISOString(), row.state],
  );
  for (const [event, at] of events) {
    await db.query('INSERT INTO payout_events (request_id, event, at) VALUES ($1, $2, $3)', [id, event, at]);
  }
  return id;
}
