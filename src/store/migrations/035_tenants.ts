/**
 * Tenants: every row holds its tenant (the Slack workspace it belongs to), every natural key is a
 * key per tenant, and row-level security, forced on the owner too, shows and accepts the rows of
 * the tenant set on the connection (`app.tenant`) alone. Rows from before are the single workspace's.
 */
import type { Migration } from './migration.js';

/** Every table of the app but schema_migrations, which is the schema's and no tenant's. */
export const TENANT_TABLES = [
  'app_leases',
  'digest_closing_balances',
  'digest_posts',
  'digest_state',
  'feed_balance_alerts',
  'feed_posted_entries',
  'feed_state',
  'home_views',
  'language_choices',
  'ledger_entries',
  'ledger_sync_state',
  'ledger_words',
  'payout_approval_reminders',
  'payout_approvals',
  'payout_batch_approvals',
  'payout_batch_events',
  'payout_batch_pace',
  'payout_batch_rows',
  'payout_batches',
  'payout_events',
  'payout_likely_matches',
  'payout_occurrences',
  'payout_requests',
  'payout_retry_approvals',
  'payout_schedule_events',
  'payout_schedules',
  'records_import_profiles',
  'records_run_exceptions',
  'records_runs',
  'saved_recipient_events',
  'saved_recipients',
  'workflow_payout_steps',
] as const;

/**
 * Natural keys, made per tenant. tenant_id comes last: lookups by the key alone (PGlite and a
 * superuser see no policy, so add no tenant condition) keep their plans, and under the policy the
 * tenant is one more index condition. Keys of ids drawn at random or from a sequence stay global.
 */
const PER_TENANT_CONSTRAINTS: ReadonlyArray<{ table: string; name: string; kind: 'PRIMARY KEY' | 'UNIQUE'; columns: string }> = [
  { table: 'app_leases', name: 'app_leases_pkey', kind: 'PRIMARY KEY', columns: 'name' },
  { table: 'digest_closing_balances', name: 'digest_closing_balances_pkey', kind: 'PRIMARY KEY', columns: 'day, time_zone, currency' },
  { table: 'digest_posts', name: 'digest_posts_pkey', kind: 'PRIMARY KEY', columns: 'day' },
  { table: 'digest_state', name: 'digest_state_pkey', kind: 'PRIMARY KEY', columns: 'id' },
  { table: 'feed_balance_alerts', name: 'feed_balance_alerts_pkey', kind: 'PRIMARY KEY', columns: 'kind, currency' },
  { table: 'feed_posted_entries', name: 'feed_posted_entries_pkey', kind: 'PRIMARY KEY', columns: 'channel_id, entry_key' },
  { table: 'feed_state', name: 'feed_state_pkey', kind: 'PRIMARY KEY', columns: 'channel_id' },
  { table: 'home_views', name: 'home_views_pkey', kind: 'PRIMARY KEY', columns: 'user_id' },
  { table: 'language_choices', name: 'language_choices_pkey', kind: 'PRIMARY KEY', columns: 'user_id' },
  { table: 'ledger_entries', name: 'ledger_entries_entry_key_key', kind: 'UNIQUE', columns: 'entry_key' },
  { table: 'ledger_sync_state', name: 'ledger_sync_state_pkey', kind: 'PRIMARY KEY', columns: 'id' },
  { table: 'payout_approval_reminders', name: 'payout_approval_reminders_pkey', kind: 'PRIMARY KEY', columns: 'subject_id, approver_id' },
  { table: 'payout_approvals', name: 'payout_approvals_pkey', kind: 'PRIMARY KEY', columns: 'request_id, user_id' },
  { table: 'payout_batch_approvals', name: 'payout_batch_approvals_pkey', kind: 'PRIMARY KEY', columns: 'batch_id, user_id' },
  { table: 'payout_batch_pace', name: 'payout_batch_pace_pkey', kind: 'PRIMARY KEY', columns: 'name' },
  { table: 'payout_batch_rows', name: 'payout_batch_rows_pkey', kind: 'PRIMARY KEY', columns: 'batch_id, row_number' },
  { table: 'payout_likely_matches', name: 'payout_likely_matches_pkey', kind: 'PRIMARY KEY', columns: 'request_id, match_id' },
  { table: 'payout_occurrences', name: 'payout_occurrences_pkey', kind: 'PRIMARY KEY', columns: 'request_id, number' },
  { table: 'payout_requests', name: 'payout_requests_reference_key', kind: 'UNIQUE', columns: 'reference' },
  { table: 'payout_retry_approvals', name: 'payout_retry_approvals_pkey', kind: 'PRIMARY KEY', columns: 'request_id, attempt, user_id' },
  { table: 'payout_schedules', name: 'payout_schedules_pkey', kind: 'PRIMARY KEY', columns: 'request_id' },
  { table: 'records_import_profiles', name: 'records_import_profiles_pkey', kind: 'PRIMARY KEY', columns: 'name_key' },
  { table: 'records_run_exceptions', name: 'records_run_exceptions_pkey', kind: 'PRIMARY KEY', columns: 'run_id, ord' },
  { table: 'records_runs', name: 'records_runs_source_key_key', kind: 'UNIQUE', columns: 'source_key' },
  { table: 'saved_recipients', name: 'saved_recipients_pkey', kind: 'PRIMARY KEY', columns: 'identity' },
  { table: 'workflow_payout_steps', name: 'workflow_payout_steps_pkey', kind: 'PRIMARY KEY', columns: 'execution_id' },
  { table: 'workflow_payout_steps', name: 'workflow_payout_steps_payout_id_key', kind: 'UNIQUE', columns: 'payout_id' },
];

const addTenant = (table: string) => `
    ALTER TABLE ${table} ADD COLUMN tenant_id text NOT NULL DEFAULT 'single-workspace';
    ALTER TABLE ${table} ALTER COLUMN tenant_id SET DEFAULT current_setting('app.tenant');`;

const perTenant = ({ table, name, kind, columns }: (typeof PER_TENANT_CONSTRAINTS)[number]) => `
    ALTER TABLE ${table} DROP CONSTRAINT ${name}, ADD CONSTRAINT ${name} ${kind} (${columns}, tenant_id);`;

const isolate = (table: string) => `
    ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;
    ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;
    CREATE POLICY tenant_isolation ON ${table}
      USING (tenant_id = current_setting('app.tenant', true)) WITH CHECK (tenant_id = current_setting('app.tenant', true));`;

export const tenants: Migration = {
  id: 35,
  name: 'tenants',
  sql: `
    -- Existing rows are the single workspace's; from now on a row is the connection's tenant's, and
    -- an insert on a connection with no tenant set fails.
    ${TENANT_TABLES.map(addTenant).join('')}
    ${PER_TENANT_CONSTRAINTS.map(perTenant).join('')}
    DROP INDEX payout_likely_matches_one_proposed;
    CREATE UNIQUE INDEX payout_likely_matches_one_proposed ON payout_likely_matches (request_id, tenant_id) WHERE status = 'proposed';

    -- The ledger's triggers keep each tenant's count and words: the rows they write carry the
    -- tenant of the entries, and a tenant's first entries create its sync state row.
    CREATE OR REPLACE FUNCTION ledger_entries_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ledger_sync_state AS s (id, tenant_id, entries_stored)
        SELECT 1, i.tenant_id, count(*) FROM inserted i GROUP BY i.tenant_id
        ON CONFLICT (tenant_id, id) DO UPDATE SET entries_stored = s.entries_stored + excluded.entries_stored;
      RETURN NULL;
    END;
    $$;
    CREATE OR REPLACE FUNCTION ledger_entries_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ledger_sync_state s SET entries_stored = s.entries_stored - d.n
        FROM (SELECT tenant_id, count(*) AS n FROM deleted GROUP BY tenant_id) d
       WHERE s.id = 1 AND s.tenant_id = d.tenant_id;
      RETURN NULL;
    END;
    $$;
    CREATE OR REPLACE FUNCTION ledger_words_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ledger_words (tenant_id, word, entry_at, seq)
        SELECT i.tenant_id, t.token, i.entry_at, i.seq FROM inserted i, unnest(ledger_search_tokens(i.words, i.reference, i.description)) AS t(token)
         WHERE octet_length(t.token) <= 200;
      RETURN NULL;
    END;
    $$;
    CREATE OR REPLACE FUNCTION ledger_words_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM ledger_words l
        USING (SELECT d.tenant_id, t.token AS word, d.entry_at, d.seq FROM deleted d, unnest(ledger_search_tokens(d.words, d.reference, d.description)) AS t(token)) AS gone
       WHERE l.word = gone.word AND l.entry_at = gone.entry_at AND l.seq = gone.seq AND l.tenant_id = gone.tenant_id;
      RETURN NULL;
    END;
    $$;

    -- Forced, so that the tables' owner is confined too; only superusers and BYPASSRLS roles are
    -- not, and hosted mode refuses to run as one (src/store/roles.ts).
    ${TENANT_TABLES.map(isolate).join('')}
  `,
};
