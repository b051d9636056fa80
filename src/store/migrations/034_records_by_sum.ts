/** Records sharing a reference may match one ledger entry by their sum: each run keeps those groups, and its exceptions the sum compared. */
import type { Migration } from './migration.js';

export const recordsBySum: Migration = {
  id: 34,
  name: 'records_by_sum',
  sql: `
    -- { "groups": 2, "records": 5, "shown": [{ "reference": "FT123", "records": 3, "currency": "USD", "minor": 99420 }] }:
    -- the groups of records matched by their sum, the first few named. Runs from before count none.
    ALTER TABLE records_runs ADD COLUMN by_sum jsonb NOT NULL DEFAULT '{"groups": 0, "records": 0, "shown": []}';
    -- An amount difference of records sharing a reference compared together: their sum; empty otherwise.
    ALTER TABLE records_run_exceptions ADD COLUMN records_sum text NOT NULL DEFAULT '';
  `,
};
