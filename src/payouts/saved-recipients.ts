/**
 * SQL for saved recipients: remembered with every completed payout (in its transaction), listed
 * and searched, and removed from the list with an audit line. Holds no rules about who may act.
 */
import type { Queryable } from '../store/db.js';
import type { PayoutRequest } from './model.js';
import { recipientIdentity, type RecipientIdentity } from './recipients.js';
import { railOf, storedRail, type RecipientPart } from './rails/index.js';
import { toDate, type Timestamp } from './rows.js';

interface SavedCommon {
  identity: RecipientIdentity;
  lastPayoutId: string;
  lastPaidAt: Date;
}

/** A recipient on the saved list, in the shape of a draft's recipient, so it fills the payout form as is. */
export type SavedRecipient = SavedCommon & RecipientPart;

interface SavedRow {
  identity: string;
  kind: string;
  recipient_name: string;
  country_code: string;
  phone: string | null;
  operator: string | null;
  account_number: string | null;
  bank_code: string | null;
  last_payout_id: string;
  last_paid_at: Timestamp;
}

export interface RecipientEvent {
  identity: RecipientIdentity;
  event: 'removed';
  userId: string;
  at: Date;
  details: Record<string, unknown>;
}

/**
 * Remembers the recipient of a payout that has just completed, with the name and numbers it was
 * paid with; a recipient removed from the list comes back. Call it in the transaction that moved
 * the request to `completed`, so that it happens exactly once with it.
 */
export async function rememberRecipient(q: Queryable, request: PayoutRequest, at: Date): Promise<void> {
  const columns = railOf(request.kind).columns(request);
  await q.query(
    `INSERT INTO saved_recipients (
       identity, kind, recipient_name, country_code, phone, operator, account_number, bank_code, last_payout_id, last_paid_at
     ) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (tenant_id, identity) DO UPDATE SET
       kind = EXCLUDED.kind, recipient_name = EXCLUDED.recipient_name, country_code = EXCLUDED.country_code,
       phone = EXCLUDED.phone, operator = EXCLUDED.operator, account_number = EXCLUDED.account_number, bank_code = EXCLUDED.bank_code,
       last_payout_id = EXCLUDED.last_payout_id, last_paid_at = EXCLUDED.last_paid_at, removed_at = NULL, removed_by = NULL`,
    [
      recipientIdentity(request),
      request.kind,
      request.recipient.name,
      request.recipient.countryCode,
      columns.phone,
      columns.operator,
      columns.account_number,
      columns.bank_code,
      request.id,
      at,
    ],
  );
}

/**
 * Saved recipients (not removed) whose name, phone, operator, account number or bank code holds
 * every word (any case; spaces in numbers ignored), last paid first, with how many match in all.
 */
export async function searchSavedRecipients(q: Queryable, words: readonly string[], limit: number): Promise<{ recipients: SavedRecipient[]; total: number }> {
  const params: unknown[] = [];
  const conditions = words.map((word) => {
    params.push(`%${likeEscape(word.toLowerCase())}%`, `%${likeEscape(word.replace(/\s+/g, '').toLowerCase())}%`);
    const text = `$${params.length - 1}`;
    const compact = `$${params.length}`;
    return `(lower(recipient_name) LIKE ${text} ESCAPE '\\' OR lower(coalesce(operator, '')) LIKE ${text} ESCAPE '\\'
      OR lower(coalesce(bank_code, '')) LIKE ${compact} ESCAPE '\\'
      OR lower(replace(coalesce(phone, ''), ' ', '')) LIKE ${compact} ESCAPE '\\'
      OR lower(replace(coalesce(account_number, ''), ' ', '')) LIKE ${compact} ESCAPE '\\')`;
  });
  const where = ['removed_at IS NULL', ...conditions].join(' AND ');
  const { rows } = await q.query<SavedRow>(`SELECT * FROM saved_recipients WHERE ${where} ORDER BY last_paid_at DESC, identity LIMIT $${params.length + 1}`, [
    ...params,
    limit,
  ]);
  const counted = await q.query<{ total: string | number }>(`SELECT count(*) AS total FROM saved_recipients WHERE ${where}`, params);
  return { recipients: rows.map(toSaved), total: Number(counted.rows[0]?.total ?? 0) };
}

/** A saved recipient still on the list. */
export async function findSavedRecipient(q: Queryable, identity: RecipientIdentity): Promise<SavedRecipient | undefined> {
  const { rows } = await q.query<SavedRow>('SELECT * FROM saved_recipients WHERE identity = $1 AND removed_at IS NULL', [identity]);
  return rows[0] ? toSaved(rows[0]) : undefined;
}

/**
 * Takes a recipient off the list and writes who did it, when and what it held, in one transaction.
 * Undefined when it was not on the list (already removed, or never saved): nothing is written.
 */
export async function removeSavedRecipient(q: Queryable, identity: RecipientIdentity, userId: string, at: Date): Promise<SavedRecipient | undefined> {
  const { rows } = await q.query<SavedRow>(
    'UPDATE saved_recipients SET removed_at = $2, removed_by = $3 WHERE identity = $1 AND removed_at IS NULL RETURNING *',
    [identity, at, userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const removed = toSaved(row);
  const { identity: _identity, lastPaidAt, ...what } = removed;
  await q.query('INSERT INTO saved_recipient_events (identity, event, user_id, at, details) VALUES ($1, $2, $3, $4, $5::jsonb)', [
    identity,
    'removed',
    userId,
    at,
    JSON.stringify({ ...what, lastPaidAt: lastPaidAt.toISOString() }),
  ]);
  return removed;
}

/** The audit of one recipient's list, oldest first. */
export async function listRecipientEvents(q: Queryable, identity: RecipientIdentity): Promise<RecipientEvent[]> {
  const { rows } = await q.query<{ identity: string; event: string; user_id: string; at: Timestamp; details: unknown }>(
    'SELECT identity, event, user_id, at, details FROM saved_recipient_events WHERE identity = $1 ORDER BY id',
    [identity],
  );
  return rows.map((row) => ({
    identity: row.identity,
    event: 'removed' as const,
    userId: row.user_id,
    at: toDate(row.at),
    details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
  }));
}

function toSaved(row: SavedRow): SavedRecipient {
  const common = { identity: row.identity, lastPayoutId: row.last_payout_id, lastPaidAt: toDate(row.last_paid_at) };
  const { recipient_name: name, country_code: countryCode } = row;
  return { ...common, ...storedRail(row.kind).fromColumns(row, { name, countryCode }) };
}

/** `%`, `_` and `\` typed by a person match themselves in a LIKE pattern. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
