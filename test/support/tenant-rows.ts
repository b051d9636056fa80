/**
 * One realistic row (or two) for every table of the app, for the tenant isolation tests. Natural
 * keys are the same whatever the tag (one payout reference, one entry key, one user id, one lease
 * name, the singleton rows), so two tenants inserting their rows prove those keys are per tenant;
 * ids drawn at random by the app carry the tag, since they stay unique across tenants.
 */

export interface TenantRow {
  table: string;
  row: Record<string, unknown>;
}

const AT = '2026-11-20T09:00:00.000Z';
const LATER = '2026-11-27T09:00:00.000Z';

/** Rows in an order that satisfies the foreign keys; `tag` tells one tenant's ids from another's. */
export function tenantRows(tag: string): TenantRow[] {
  const payout = `PR-${tag}`;
  const batch = `PB-${tag}`;
  const run = `RR-${tag}`;
  return [
    { table: 'app_leases', row: { name: 'payouts-worker', holder: 'replica-a', expires_at: LATER } },
    { table: 'digest_state', row: { id: 1, first_day: '2026-11-20' } },
    {
      table: 'digest_closing_balances',
      row: {
        day: '2026-11-20',
        time_zone: 'Africa/Kinshasa',
        currency: 'USD',
        closing_minor: 1_250_000,
        balance_minor: 1_250_000,
        balance_read_at: AT,
        ledger_seq: 1,
        computed_at: AT,
      },
    },
    { table: 'digest_posts', row: { day: '2026-11-20', channel_id: 'C0TREASURY', claimed_by: 'replica-a', claim_expires_at: LATER } },
    { table: 'feed_balance_alerts', row: { kind: 'low', currency: 'USD', below: true, balance_minor: 90_000, threshold_minor: 100_000, changed_at: AT } },
    { table: 'feed_state', row: { channel_id: 'C0TREASURY', created_at: AT } },
    { table: 'feed_posted_entries', row: { channel_id: 'C0TREASURY', entry_key: 'FT26324ABC:1', entry_at: AT, posted_at: AT, keep_until: LATER } },
    { table: 'home_views', row: { user_id: 'U0AMANI' } },
    { table: 'language_choices', row: { user_id: 'U0AMANI', locale: 'fr', updated_at: AT } },
    { table: 'ledger_sync_state', row: { id: 1 } },
    {
      table: 'ledger_entries',
      row: {
        entry_key: 'FT26324ABC:1',
        reference: 'FT26324ABC',
        occurrence: 1,
        type: 'PAYOUT',
        status: 'COMPLETED',
        amount: '-125.00',
        amount_minor: -12_500,
        currency: 'USD',
        description: 'Payout to Amani Kabila',
        date_text: '2026-11-20',
        entry_at: AT,
        first_seen_at: AT,
        words: ['amani', 'kabila'],
      },
    },
    { table: 'ledger_words', row: { word: 'invoice', entry_at: AT, seq: 1 } },
    {
      table: 'payout_batches',
      row: {
        id: batch,
        requested_by: 'U0AMANI',
        created_at: AT,
        expires_at: LATER,
        state: 'draft',
        row_count: 1,
        totals: JSON.stringify({ USD: 12_500 }),
        updated_at: AT,
      },
    },
    {
      table: 'payout_requests',
      row: {
        id: payout,
        kind: 'mobile_money',
        recipient_name: 'Amani Kabila',
        country_code: 'CD',
        phone: '243812345678',
        operator: 'VODACOM_MPESA',
        amount_minor: 12_500,
        currency: 'USD',
        reference: 'INV-2026-0042',
        requested_by: 'U0AMANI',
        requested_at: AT,
        expires_at: LATER,
        state: 'pending',
        required_approvals: 1,
        updated_at: AT,
        recipient_key: 'mobile:243812345678',
      },
    },
    { table: 'payout_events', row: { request_id: payout, event: 'requested', at: AT } },
    { table: 'payout_approvals', row: { request_id: payout, user_id: 'U0NDAYA', approved_at: AT } },
    { table: 'payout_retry_approvals', row: { request_id: payout, attempt: 1, user_id: 'U0NDAYA', approved_at: AT } },
    { table: 'payout_approval_reminders', row: { subject_id: payout, subject_kind: 'payout', approver_id: 'U0NDAYA', claimed_at: AT } },
    {
      table: 'payout_likely_matches',
      row: { request_id: payout, match_id: 'FT26324ABC:1', entry: JSON.stringify({ reference: 'FT26324ABC' }), status: 'proposed', proposed_at: AT },
    },
    { table: 'payout_schedules', row: { request_id: payout, time_zone: 'Africa/Kinshasa', first_day: '2026-11-20', time_of_day: '09:00', repeat: 'weekly' } },
    { table: 'payout_occurrences', row: { request_id: payout, number: 1, due_at: LATER, updated_at: AT } },
    { table: 'payout_schedule_events', row: { request_id: payout, event: 'scheduled', at: AT } },
    { table: 'payout_batch_approvals', row: { batch_id: batch, user_id: 'U0NDAYA', approved_at: AT } },
    { table: 'payout_batch_events', row: { batch_id: batch, event: 'drafted', at: AT } },
    { table: 'payout_batch_pace', row: { name: 'bulk-sends', next_at: AT } },
    {
      table: 'payout_batch_rows',
      row: {
        batch_id: batch,
        row_number: 1,
        draft: JSON.stringify({ kind: 'mobile_money' }),
        reference: 'INV-2026-0043',
        amount_minor: 12_500,
        currency: 'USD',
        recipient_key: 'mobile:243812345678',
      },
    },
    { table: 'workspaces', row: { team_name: 'Kinshasa Treasury', installed_by: 'U0AMANI', installed_at: AT, state: 'active' } },
    { table: 'tenant_data_keys', row: { kek_id: 'k1', wrapped_key: Buffer.from('wrapped-data-key'), created_at: AT } },
    { table: 'slack_installations', row: { bot_user_id: 'U0BOT', sealed: Buffer.from('sealed-installation'), installed_at: AT, updated_at: AT } },
    { table: 'workspace_settings', row: { settings: JSON.stringify({ FLEET_VIEWERS: 'U0AMANI' }), updated_by: 'U0AMANI', updated_at: AT } },
    { table: 'fleet_connections', row: { sealed_key: Buffer.from('sealed-key'), connected_by: 'U0AMANI', connected_at: AT } },
    { table: 'hosting_replicas', row: { replica_id: 'replica-a', seen_at: AT } },
    {
      table: 'records_import_profiles',
      row: {
        name_key: 'bank statement',
        name: 'Bank statement',
        profile: JSON.stringify({ columns: {} }),
        created_by: 'U0AMANI',
        updated_by: 'U0AMANI',
        created_at: AT,
        updated_at: AT,
      },
    },
    {
      table: 'records_runs',
      row: {
        id: run,
        source_key: 'sha256:0f1e2d',
        user_id: 'U0AMANI',
        created_at: AT,
        file_name: 'november.csv',
        period_start: '2026-11-01',
        period_end: '2026-11-20',
        ledger_complete: true,
        record_count: 1,
        matched: 0,
        differences: 1,
        not_in_ledger: 0,
        not_in_records: 0,
        totals: JSON.stringify({}),
      },
    },
    {
      table: 'records_run_exceptions',
      row: {
        run_id: run,
        ord: 1,
        kind: 'amount',
        reference: 'FT26324ABC',
        date: '2026-11-20',
        records_amount: '126.00',
        ledger_amount: '125.00',
        currency: 'USD',
        note: '',
      },
    },
    {
      table: 'saved_recipients',
      row: {
        identity: 'mobile:243812345678',
        kind: 'mobile_money',
        recipient_name: 'Amani Kabila',
        country_code: 'CD',
        last_payout_id: payout,
        last_paid_at: AT,
      },
    },
    { table: 'saved_recipient_events', row: { identity: 'mobile:243812345678', event: 'removed', user_id: 'U0AMANI', at: AT, details: JSON.stringify({}) } },
    {
      table: 'workflow_payout_steps',
      row: { execution_id: 'Fx0WORKFLOW1', requester: 'U0AMANI', state: 'received', token_valid_until: LATER, created_at: AT, payout_id: payout },
    },
  ];
}

/** The INSERT of one row, with `extra` columns (tenant_id, say) on top. */
export function insertOf({ table, row }: TenantRow, extra: Record<string, unknown> = {}): { sql: string; params: unknown[] } {
  const entries = Object.entries({ ...row, ...extra });
  const columns = entries.map(([column]) => column).join(', ');
  const values = entries.map((_, index) => `$${index + 1}`).join(', ');
  return { sql: `INSERT INTO ${table} (${columns}) VALUES (${values})`, params: entries.map(([, value]) => value) };
}
