/**
 * Every Slack listener, registered in one place: first the middleware every request goes through
 * (its reader), then the `/fleet` command with its subcommands (in the order help lists them), then
 * the buttons and modals, all in one router that Bolt runs as its last middleware (listener-router.ts).
 * Listeners never import each other.
 */
import type { App } from '@slack/bolt';
import type { SlackContext } from '../context.js';
import { readerMiddleware } from '../transport/middleware.js';
import { balanceSubcommand, registerAccountActions } from './account.js';
import { digestSubcommand } from './digest.js';
import { exportSubcommand, registerExportActions } from './export.js';
import { feedSubcommand } from './feed.js';
import { registerHomeListeners } from './home.js';
import { registerFleetCommand } from './fleet-command.js';
import { languageSubcommand } from './language.js';
import { registerPayoutApprovalListeners } from './payout-approval.js';
import { registerPayoutBatchApprovalListeners } from './payout-batch-approval.js';
import { BULK_WORDS, openBatchForm, registerPayoutBatchListeners } from './payout-batch.js';
import { payoutHistorySubcommand } from './payout-history.js';
import { payoutRequestSubcommand, registerPayoutRequestListeners } from './payout-request.js';
import { recipientsSubcommand, registerRecipientListeners } from './recipients.js';
import { registerPayoutScheduleListeners, scheduledSubcommand } from './payout-schedule.js';
import { registerImportProfileListeners } from './import-profile.js';
import { recordsSubcommand, registerRecordsListeners } from './partner-records.js';
import { runwaySubcommand } from './runway.js';
import { ledgerSubcommand, registerTransactionsListeners, transactionsSubcommand } from './transactions.js';
import { registerWorkflowStepListeners } from './workflow-step.js';
import { ListenerRouter } from '../transport/listener-router.js';

export function registerListeners(app: App, ctx: SlackContext): void {
  app.use(readerMiddleware(ctx));
  const router = new ListenerRouter(ctx.turns);
  registerFleetCommand(router, ctx, [
    balanceSubcommand(ctx),
    runwaySubcommand(ctx),
    transactionsSubcommand(ctx),
    payoutRequestSubcommand(ctx, [
      { words: BULK_WORDS, open: openBatchForm(ctx), help: (t) => [{ usage: t('payoutBatch.help.usage'), description: t('payoutBatch.help.description') }] },
    ]),
    payoutHistorySubcommand(ctx),
    recipientsSubcommand(ctx),
    scheduledSubcommand(ctx),
    feedSubcommand(ctx),
    ledgerSubcommand(ctx),
    exportSubcommand(ctx),
    recordsSubcommand(ctx),
    digestSubcommand(ctx),
    languageSubcommand(ctx),
  ]);
  registerAccountActions(router, ctx);
  registerTransactionsListeners(router, ctx);
  registerPayoutRequestListeners(router, ctx);
  registerPayoutApprovalListeners(router, ctx);
  registerPayoutBatchListeners(router, ctx);
  registerPayoutBatchApprovalListeners(router, ctx);
  registerRecipientListeners(router, ctx);
  registerPayoutScheduleListeners(router, ctx);
  registerExportActions(router, ctx);
  registerRecordsListeners(router, ctx);
  registerImportProfileListeners(router, ctx);
  registerHomeListeners(router, ctx);
  registerWorkflowStepListeners(router, ctx, app.client);
  app.use(router.middleware());
}
