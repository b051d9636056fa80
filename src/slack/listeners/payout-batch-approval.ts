/**
 * The buttons of a bulk payout's approval message: Approve (all rows), Reject, and Stop while its
 * rows are being sent. Each asks for confirmation in Slack first; the button's value only names the
 * batch, and the service checks the clicker's role and the batch as stored.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { textsFor } from '../../i18n/index.js';
import { BATCH_ID_PATTERN, type BatchResult } from '../../payouts/index.js';
import { batchRefusalText } from '../batch-problems.js';
import type { SlackContext } from '../context.js';
import { PAYOUT_BATCH_ACTIONS } from '../ids.js';
import { surfaceFor } from '../locales.js';

export function registerPayoutBatchApprovalListeners(app: App, ctx: SlackContext): void {
  const act = (actionId: string, run: (batchId: string, userId: string, reason: string) => Promise<BatchResult>) => {
    app.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client }) => {
      await ack();
      const batchId = BATCH_ID_PATTERN.test(action.value ?? '') ? action.value ?? '' : '';
      const surface = await surfaceFor(ctx, body.user.id);
      let result: BatchResult;
      try {
        result = await run(batchId, body.user.id, textsFor(surface.locale)('payoutBatch.rejectReason'));
      } catch (error) {
        ctx.logger.error({ err: error, batchId }, 'a bulk payout action failed');
        return;
      }
      if (result.ok || !body.channel?.id) return;
      await client.chat.postEphemeral({
        channel: body.channel.id, user: body.user.id, text: `:no_entry: ${batchRefusalText(surface.locale, result)}`,
      }).catch((error: unknown) => ctx.logger.warn({ err: error }, 'could not tell a person why a bulk payout action was refused'));
    });
  };
  act(PAYOUT_BATCH_ACTIONS.approve, (batchId, userId) => ctx.batches.approve(batchId, userId));
  act(PAYOUT_BATCH_ACTIONS.reject, (batchId, userId, reason) => ctx.batches.reject(batchId, userId, reason));
  act(PAYOUT_BATCH_ACTIONS.stop, (batchId, userId) => ctx.batches.stop(batchId, userId));
}
