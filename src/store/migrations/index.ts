/**
 * Every schema migration, in the order they apply. To add one: create `NNN_name.ts` exporting a
 * `Migration` (declared in `migration.ts`), then add one import line and one array entry below
 * (ids ascend, never reused).
 */
import type { Migration } from './migration.js';
import { core } from './001_core.js';
import { payouts } from './002_payouts.js';
import { feed } from './003_feed.js';
import { feedSafety } from './004_feed_safety.js';
import { settlement } from './005_settlement.js';
import { approvalRules } from './006_approval_rules.js';
import { ledger } from './007_ledger.js';
import { languageChoices } from './008_language_choices.js';
import { digest } from './009_digest.js';
import { payoutTransactionIndex } from './010_payout_transaction_index.js';
import { homeViews } from './011_home_views.js';
import { savedRecipients } from './012_saved_recipients.js';
import { payoutBatches } from './013_payout_batches.js';
import { approverReminders } from './015_approver_reminders.js';
import { digestClosingBalances } from './016_digest_closing_balances.js';
import { recipientIdentityRule } from './017_recipient_identity.js';
import { batchDayTotals } from './018_batch_day_totals.js';
import { bulkPayoutFilesAndResults } from './019_bulk_payout_files_and_results.js';
import { payoutSchedules } from './020_payout_schedules.js';
import { recordsRuns } from './022_records_runs.js';
import { runwayAlertCrossings } from './023_runway_alert_crossings.js';
import { seniorApprovals } from './024_senior_approvals.js';
import { workflowPayoutSteps } from './025_workflow_payout_steps.js';
import { ledgerListIndexes } from './026_ledger_list_indexes.js';
import { ledgerWords } from './027_ledger_words.js';
import { changedRecipientDetails } from './028_changed_recipient_details.js';
import { requestedThrough } from './029_requested_through.js';
import { feedLedgerSweep } from './030_feed_ledger_sweep.js';
import { gateHolds } from './031_gate_holds.js';
import { dropContentHash } from './032_drop_content_hash.js';
import { importProfiles } from './033_import_profiles.js';
import { recordsBySum } from './034_records_by_sum.js';
import { tenants } from './035_tenants.js';
import { hosting } from './036_hosting.js';
import { workspaceSettings } from './037_workspace_settings.js';
import { hostingReplicas } from './038_hosting_replicas.js';

export type { Migration } from './migration.js';

export const migrations: Migration[] = [
  core,
  payouts,
  feed,
  feedSafety,
  settlement,
  approvalRules,
  ledger,
  languageChoices,
  digest,
  payoutTransactionIndex,
  homeViews,
  savedRecipients,
  payoutBatches,
  approverReminders,
  digestClosingBalances,
  recipientIdentityRule,
  batchDayTotals,
  bulkPayoutFilesAndResults,
  payoutSchedules,
  recordsRuns,
  runwayAlertCrossings,
  seniorApprovals,
  workflowPayoutSteps,
  ledgerListIndexes,
  ledgerWords,
  changedRecipientDetails,
  requestedThrough,
  feedLedgerSweep,
  gateHolds,
  dropContentHash,
  importProfiles,
  recordsBySum,
  tenants,
  hosting,
  workspaceSettings,
  hostingReplicas,
];
