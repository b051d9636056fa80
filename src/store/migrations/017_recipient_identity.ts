/**
 * Recipient keys by the corrected bank rule (src/payouts/recipients.ts): leading zeros of an account
 * number count, and a BIC of 8 characters equals that BIC with `XXX` but no other branch. Recomputes
 * the day totals' keys of requests and bulk rows, and the saved recipients' identities, splitting a
 * saved recipient the old rule had merged into the accounts its completed payouts really went to.
 */
import type { Migration } from './migration.js';

/** `bank:<BIC>:<account number>` in SQL, as `bankAccountKey` in src/payouts/rails/bank-account.ts makes it. */
export function bankAccountKeySql(bankCode: string, accountNumber: string): string {
  return `'bank:' || CASE WHEN length(${bankCode}) = 11 AND right(${bankCode}, 3) = 'XXX' THEN left(${bankCode}, 8) ELSE ${bankCode} END || ':' || ${accountNumber}`;
}

/** `recipientKey` (day totals: a wallet by its phone alone). */
function recipientKeySql(kind: string, phone: string, bankCode: string, accountNumber: string): string {
  return `CASE WHEN ${kind} = 'mobile_money' THEN 'mobile:' || ${phone} ELSE ${bankAccountKeySql(bankCode, accountNumber)} END`;
}

/** `recipientIdentity` (new and saved recipients: a wallet by its phone and operator). */
function recipientIdentitySql(kind: string, phone: string, operator: string, bankCode: string, accountNumber: string): string {
  return `CASE WHEN ${kind} = 'mobile_money' THEN 'mobile:' || ${phone} || ':' || ${operator} ELSE ${bankAccountKeySql(bankCode, accountNumber)} END`;
}

/** The identity the old rule (migration 012) gave: the BIC's first 8 characters, leading zeros dropped. */
const OLD_IDENTITY = `CASE WHEN kind = 'mobile_money' THEN 'mobile:' || phone || ':' || operator
  ELSE 'bank:' || left(bank_code, 8) || ':' || ltrim(account_number, '0') END`;

export const recipientIdentityRule: Migration = {
  id: 17,
  name: 'recipient_identity',
  sql: `
    UPDATE payout_requests SET recipient_key = ${recipientKeySql('kind', 'phone', 'bank_code', 'account_number')};
    UPDATE payout_batch_rows SET recipient_key = ${recipientKeySql(
      "(draft->>'kind')",
      "(draft->'recipient'->>'phone')",
      "(draft->'recipient'->>'bankCode')",
      "(draft->'recipient'->>'accountNumber')",
    )};

    -- Each saved recipient holds the account of its last completed payout: its new identity comes
    -- from that. The new rule only splits (never merges), so no two rows get the same identity.
    CREATE TEMPORARY TABLE recipient_identity_change ON COMMIT DROP AS
      SELECT identity AS old_identity, ${recipientIdentitySql('kind', 'phone', 'operator', 'bank_code', 'account_number')} AS new_identity,
        removed_at, removed_by
      FROM saved_recipients;
    UPDATE saved_recipient_events e SET identity = c.new_identity
      FROM recipient_identity_change c WHERE e.identity = c.old_identity AND c.new_identity <> c.old_identity;
    UPDATE saved_recipients s SET identity = c.new_identity
      FROM recipient_identity_change c WHERE s.identity = c.old_identity AND c.new_identity <> c.old_identity;

    -- Accounts paid but hidden behind another under the old rule: known again, the latest payout
    -- for each, and off the list when the recipient they were merged into had been removed from it.
    INSERT INTO saved_recipients (
      identity, kind, recipient_name, country_code, phone, operator, account_number, bank_code, last_payout_id, last_paid_at, removed_at, removed_by
    )
    SELECT DISTINCT ON (paid.identity) paid.identity, paid.kind, paid.recipient_name, paid.country_code, paid.phone, paid.operator,
      paid.account_number, paid.bank_code, paid.id, paid.updated_at, c.removed_at, c.removed_by
    FROM (
      SELECT *, ${recipientIdentitySql('kind', 'phone', 'operator', 'bank_code', 'account_number')} AS identity, ${OLD_IDENTITY} AS old_identity
      FROM payout_requests WHERE state = 'completed'
    ) AS paid
    LEFT JOIN recipient_identity_change c ON c.old_identity = paid.old_identity
    ORDER BY paid.identity, paid.updated_at DESC, paid.id DESC
    ON CONFLICT (identity) DO NOTHING;
  `,
};
