/** The daily digest's closing balances: each finished day's figure per currency, computed once and kept. */
import type { Migration } from './migration.js';

export const digestClosingBalances: Migration = {
  id: 16,
  name: 'digest_closing_balances',
  sql: `
    -- One row per finished day (in the digest's time zone) and currency, written once from an anchor:
    -- a balance read at balance_read_at, when the ledger held every entry of that balance and its last
    -- stored entry was ledger_seq. closing_minor = balance_minor less the Completed entries dated from
    -- the day's end up to balance_read_at. Never rewritten: a later read adds the Completed entries
    -- stored after ledger_seq and dated before the day's end (late entries), and says it corrected it.
    CREATE TABLE digest_closing_balances (
      day text NOT NULL,
      time_zone text NOT NULL,
      currency text NOT NULL,
      closing_minor bigint NOT NULL,
      balance_minor bigint NOT NULL,
      balance_read_at timestamptz NOT NULL,
      ledger_seq bigint NOT NULL,
      computed_at timestamptz NOT NULL,
      PRIMARY KEY (day, time_zone, currency)
    );
  `,
};
