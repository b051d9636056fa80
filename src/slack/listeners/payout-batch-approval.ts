/**
 * The buttons of a bulk payout's approval message (also shown in the approvers' Home): Approve and
 * send all (after Slack's confirmation, which states the count and the totals), Reject (a modal asks
 * the reason the requester will read), and Stop while its rows are being sent. The button's value
 * only names the batch, and the service checks the clicker's role and the batch as stored. A
 * refusal or a failure is told to the person who clicked (ephemeral in a channel, or by DM from the
 * Home), never only logged.
 */
import type { BlockAction, ButtonAction, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import { textsFor } from '../../i18n/index.js';
import { BATCH_ID_PATTERN, type BatchResult } from '../../payouts/index.js';
import { batchRefusalText } from '../refusals/batch-problems.js';
import type { SlackContext } from '../context.js';
import { openThenFill, type ModalOrRefusal } from '../open-then-fill.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText, type FailureAction } from '../refusals/failures.js';
import { PAYOUT_BATCH, PAYOUT_BATCH_ACTIONS } from '../ids.js';
import { surfaceFor } from '../locales.js';
import { tellPrivately } from '../refusals/payout-refusals.js';
import { loadingModal, noticeModal, noticeUpdate } from '../views/notice.js';
import { buildBatchRejectModal, inBatchModal } from '../views/payout-batch.js';

const readBatchId = (value: string | undefined): string => (BATCH_ID_PATTERN.test(value ?? '') ? (value ?? '') : '');

export function registerPayoutBatchApprovalListeners(router: ListenerRouter, ctx: SlackContext): void {
  const { logger } = ctx;

  /** A button that acts at once; `act` answers whether the service did it, and anything else is told to the clicker. */
  const onClick = (
    actionId: string,
    what: FailureAction,
    act: (
      batchId: string,
      userId: string,
      open: (lookups: Promise<ModalOrRefusal>) => Promise<{ refusal: string } | undefined>,
    ) => Promise<BatchResult | undefined>,
  ) => {
    router.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client, context }) => {
      await ack();
      const batchId = readBatchId(action.value);
      const surface = await readerSurfaceOf(context, body.user.id)();
      const tell = (text: string) => tellPrivately(client, logger, surface, { channel: body.channel?.id, user: body.user.id }, text);
      try {
        // A modal opens at once, or a loading view first when the lookups before it are slow.
        const open = (lookups: Promise<ModalOrRefusal>) =>
          openThenFill(client, body.trigger_id, lookups, {
            loading: () => {
              const { title, callbackId } = inBatchModal(surface);
              return loadingModal(surface, title, callbackId);
            },
            refusal: (text) => noticeModal(surface, { ...inBatchModal(surface), text }),
            failure: (error) => noticeModal(surface, { ...inBatchModal(surface), text: failureText(surface.locale, error, what, logger) }),
          });
        const result = await act(batchId, body.user.id, open);
        if (result && !result.ok) await tell(`:no_entry: ${batchRefusalText(surface.locale, result)}`);
      } catch (error) {
        await tell(failureText(surface.locale, error, what, logger));
      }
    });
  };
  onClick(PAYOUT_BATCH_ACTIONS.approve, 'approveBulkPayout', (batchId, userId) => ctx.batches.approve(batchId, userId));
  onClick(PAYOUT_BATCH_ACTIONS.stop, 'stopBulkPayout', (batchId, userId) => ctx.batches.stop(batchId, userId));
  // The reason is asked in a modal, opened only when the person may reject the batch now.
  onClick(PAYOUT_BATCH_ACTIONS.reject, 'rejectBulkPayout', async (batchId, userId, open) => {
    let refusal: BatchResult | undefined;
    const lookups = async (): Promise<ModalOrRefusal> => {
      const allowed = await ctx.batches.mayReject(batchId, userId);
      const surface = await surfaceFor(ctx, userId);
      if (allowed.ok) return { view: buildBatchRejectModal(surface, allowed.batch) };
      refusal = allowed;
      return { refusal: `:no_entry: ${batchRefusalText(surface.locale, allowed)}` };
    };
    // A refusal in time is told as every other button's; a late one shows in the loading view.
    return (await open(lookups())) ? refusal : undefined;
  });

  router.view<ViewSubmitAction>(PAYOUT_BATCH.rejectView, async ({ ack, body, view, context }) => {
    const surface = await readerSurfaceOf(context, body.user.id)();
    const t = textsFor(surface.locale);
    const batchId = readBatchId(view.private_metadata);
    const reason = view.state.values[PAYOUT_BATCH.rejectReasonBlock]?.[PAYOUT_BATCH.input]?.value ?? '';
    let answer: ViewResponseAction;
    try {
      const result = await ctx.batches.reject(batchId, body.user.id, reason);
      // The same submission delivered twice finds the batch already rejected by this person.
      const rejectedByThem = result.ok || (result.batch?.state === 'rejected' && result.batch.rejectedBy === body.user.id);
      if (rejectedByThem) answer = noticeUpdate(surface, { ...inBatchModal(surface), text: t('payoutBatch.reject.done') });
      else if (result.code === 'reason_required')
        answer = { response_action: 'errors', errors: { [PAYOUT_BATCH.rejectReasonBlock]: batchRefusalText(surface.locale, result) } };
      else answer = noticeUpdate(surface, { ...inBatchModal(surface), text: `:no_entry: ${batchRefusalText(surface.locale, result)}` });
    } catch (error) {
      answer = noticeUpdate(surface, { ...inBatchModal(surface), text: failureText(surface.locale, error, 'rejectBulkPayout', logger) });
    }
    await ack(answer);
  });
}
