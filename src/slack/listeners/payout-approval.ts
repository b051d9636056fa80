/**
 * The approval message's buttons and the approve and reject modals. A button carries only a request
 * id: the request is read from the store and the policy checked before a modal opens, and the
 * service checks everything again when the modal is submitted. A refusal is told only to the person
 * who tried (ephemeral message or their modal), in their language, and changes nothing.
 */
import type { BlockAction, ButtonAction, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { textsFor } from '../../i18n/index.js';
import type { PayoutActionResult, PayoutRequest, PolicyDecision } from '../../payouts/index.js';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText, type FailureAction } from '../refusals/failures.js';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_VIEWS } from '../ids.js';
import { refusalMessage, refusalText, tellPrivately } from '../refusals/payout-refusals.js';
import { readMatchValue, readPayoutId } from '../trust/payout-values.js';
import { approvalOutcome, buildApproveModal, buildRejectModal, refusedText } from '../views/payout-approval.js';
import { noticeModal, noticeUpdate } from '../views/notice.js';
import { approvalContext } from '../approval-context.js';
import { openThenFill, type ModalOrRefusal } from '../open-then-fill.js';
import { escapeWithin, type Surface } from '../views/text.js';

/** The payout service's answer to "may this person do that to this request now?" */
type Check = (request: PayoutRequest, userId: string) => Promise<PolicyDecision>;

export function registerPayoutApprovalListeners(router: ListenerRouter, ctx: SlackContext): void {
  const { payouts, logger } = ctx;

  /**
   * Reads the request a button names, checks the policy, then opens its modal, in the clicker's
   * language, with the click's trigger id: a loading view first when those lookups are slow.
   */
  const openModalIfAllowed = (actionId: string, check: Check, modal: (reader: Surface, request: PayoutRequest) => Promise<View>, what: FailureAction) => {
    router.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client, context }) => {
      await ack();
      let reader = ctx.surface;
      const lookups = async (): Promise<ModalOrRefusal> => {
        reader = await readerSurfaceOf(context, body.user.id)();
        try {
          const request = await requestFrom(ctx, action.value);
          if (!request) return { refusal: refusalText({ code: 'not_found' }, reader.locale) };
          const decision = await check(request, body.user.id);
          return decision.ok ? { view: await modal(reader, request) } : { refusal: refusalText(decision, reader.locale) };
        } catch (error) {
          return { refusal: failureText(reader.locale, error, what, logger) };
        }
      };
      const tell = (text: string) => tellPrivately(client, logger, reader, { channel: body.channel?.id, user: body.user.id }, text);
      const notice = (surface: Surface, text: string) =>
        noticeModal(surface, { title: textsFor(surface.locale)('payoutApproval.title', { id: action.value ?? '' }), text, callbackId: PAYOUT_VIEWS.notice });
      try {
        const refused = await openThenFill(client, body.trigger_id, lookups(), {
          loading: () => notice(reader, textsFor(reader.locale)('common.loading')),
          refusal: (text) => notice(reader, text),
          failure: (error) => notice(reader, failureText(reader.locale, error, what, logger)),
        });
        if (refused) await tell(refused.refusal);
      } catch (error) {
        await tell(failureText(reader.locale, error, what, logger));
      }
    });
  };
  // The approve window says what the approval message says: read again now, in one query.
  const approveModal = async (reader: Surface, request: PayoutRequest) => buildApproveModal(reader, request, await approvalContext(ctx, request));
  openModalIfAllowed(PAYOUT_ACTIONS.approve, (request, userId) => payouts.mayApprove(request, userId), approveModal, 'openApproval');
  openModalIfAllowed(
    PAYOUT_ACTIONS.reject,
    (request, userId) => payouts.mayReject(request, userId),
    async (reader, request) => buildRejectModal(reader, request),
    'openRejection',
  );

  /**
   * Buttons that act at once: the service decides, and only a refusal (or, with `afterwards`, a
   * step that changed nothing visible yet) needs words here. `read` takes what the button carries.
   */
  const actOnClick = <T>(
    actionId: string,
    read: (value: string | undefined) => T | undefined,
    act: (value: T, userId: string) => Promise<PayoutActionResult>,
    what: FailureAction,
    afterwards?: (request: PayoutRequest, reader: Surface) => string | undefined,
  ) => {
    router.action<BlockAction<ButtonAction>>(actionId, async ({ ack, body, action, client, context }) => {
      await ack();
      const reader = await readerSurfaceOf(context, body.user.id)();
      const tell = (text: string) => tellPrivately(client, logger, reader, { channel: body.channel?.id, user: body.user.id }, text);
      try {
        const value = read(action.value);
        if (value === undefined) return await tell(refusalText({ code: 'not_found' }, reader.locale));
        const result = await act(value, body.user.id);
        if (!result.ok) return await tell(refusalText(result, reader.locale));
        const note = afterwards?.(result.request, reader);
        if (note) await tell(note);
      } catch (error) {
        await tell(failureText(reader.locale, error, what, logger));
      }
    });
  };
  actOnClick(PAYOUT_ACTIONS.cancel, readPayoutId, (id, userId) => payouts.cancel(id, userId), 'cancelPayout');
  actOnClick(
    PAYOUT_ACTIONS.retry,
    readPayoutId,
    (id, userId) => payouts.retryUnknown(id, userId),
    'retryPayout',
    (request, reader) =>
      // Still unknown with agreements for the next attempt: waiting for another approver, nothing sent.
      request.state === 'unknown' && request.retryApprovals.length > 0
        ? textsFor(reader.locale)('payoutApproval.retryAgreed', { id: request.id, count: request.requiredApprovals })
        : undefined,
  );
  actOnClick(PAYOUT_ACTIONS.confirmMatch, readMatchValue, ({ id, matchId }, userId) => payouts.confirmLikelyMatch(id, userId, matchId), 'confirmMatch');
  actOnClick(PAYOUT_ACTIONS.rejectMatch, readMatchValue, ({ id, matchId }, userId) => payouts.rejectLikelyMatch(id, userId, matchId), 'rejectMatch');

  router.view<ViewSubmitAction>(PAYOUT_VIEWS.approve, async ({ ack, body, view, client, context }) => {
    const reader = await readerSurfaceOf(context, body.user.id)();
    const t = textsFor(reader.locale);
    const id = readPayoutId(view.private_metadata);
    if (!id) return ack(updateToNotice(reader, t('payoutApproval.approve.staleTitle'), t('payoutApproval.approve.stale')));
    const duplicateChecked = duplicateTicked(view.state.values);
    if (duplicateChecked === false) {
      // The window showed the tick and it was left empty: said under it; the service would refuse anyway.
      return ack({ response_action: 'errors', errors: { [PAYOUT_BLOCKS.duplicateCheck]: t('approvalSignals.tick.missing') } });
    }
    const title = t('payoutApproval.title', { id });
    // Approving may send the payout, which can take longer than the 3 seconds Slack waits for an answer.
    await ack(updateToNotice(reader, title, t('payoutApproval.approve.recording')));
    let outcome: { title: string; text: string };
    try {
      outcome = approvalOutcome(await payouts.approve(id, body.user.id, { duplicateChecked: duplicateChecked === true }), body.user.id, reader.locale);
    } catch (error) {
      outcome = { title, text: failureText(reader.locale, error, 'recordApproval', logger) };
    }
    await showOutcome(client, ctx, reader, { viewId: view.id, userId: body.user.id, channel: ctx.payoutSettings.approvalChannelId }, outcome);
  });

  router.view<ViewSubmitAction>(PAYOUT_VIEWS.reject, async ({ ack, body, view, context }) => {
    const reader = await readerSurfaceOf(context, body.user.id)();
    const t = textsFor(reader.locale);
    const id = readPayoutId(view.private_metadata);
    let answer: ViewResponseAction;
    if (!id) {
      answer = updateToNotice(reader, t('payoutApproval.reject.staleTitle'), t('payoutApproval.reject.stale'));
    } else {
      const title = t('payoutApproval.title', { id });
      try {
        const reason = view.state.values[PAYOUT_BLOCKS.rejectReason]?.[PAYOUT_ACTIONS.input]?.value ?? '';
        const result = await payouts.reject(id, body.user.id, reason);
        // The same submission delivered twice finds the request already rejected by this person.
        const rejectedByThem = result.ok || (result.request?.state === 'rejected' && result.request.rejectedBy === body.user.id);
        if (rejectedByThem) answer = updateToNotice(reader, title, t('payoutApproval.reject.done'));
        else if (result.code === 'reason_required')
          answer = { response_action: 'errors', errors: { [PAYOUT_BLOCKS.rejectReason]: refusalMessage(result, reader.locale) } };
        else answer = updateToNotice(reader, title, refusedText(reader.locale, escapeWithin(refusalMessage(result, reader.locale), 2000)));
      } catch (error) {
        answer = updateToNotice(reader, title, failureText(reader.locale, error, 'rejectPayout', logger));
      }
    }
    await ack(answer);
  });
}

function updateToNotice(reader: Surface, title: string, text: string): ViewResponseAction {
  return noticeUpdate(reader, { title, text, callbackId: PAYOUT_VIEWS.notice });
}

async function requestFrom(ctx: SlackContext, value: string | undefined): Promise<PayoutRequest | undefined> {
  const id = readPayoutId(value);
  return id ? ctx.payouts.get(id) : undefined;
}

/** Shows the approver what became of their approval; if their modal is gone, tells them privately instead. */
async function showOutcome(
  client: WebClient,
  ctx: SlackContext,
  reader: Surface,
  target: { viewId: string; userId: string; channel: string | undefined },
  outcome: { title: string; text: string },
): Promise<void> {
  try {
    await client.views.update({
      view_id: target.viewId,
      view: noticeModal(reader, { title: outcome.title, text: outcome.text, callbackId: PAYOUT_VIEWS.notice }),
    });
  } catch (error) {
    ctx.logger.info({ err: error }, 'could not show the approver the outcome in their modal; telling them privately');
    await tellPrivately(client, ctx.logger, reader, { channel: target.channel, user: target.userId }, outcome.text);
  }
}

/** The tick of the approve window: true ticked, false shown but empty, undefined not shown. */
function duplicateTicked(values: ViewSubmitAction['view']['state']['values']): boolean | undefined {
  const block = values[PAYOUT_BLOCKS.duplicateCheck];
  if (!block) return undefined;
  return (block[PAYOUT_ACTIONS.input]?.selected_options ?? []).some((option) => option.value === 'checked');
}
