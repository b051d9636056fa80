/**
 * Payout refusals and failures turned into Slack answers, in one place: field errors keyed by the
 * form's block ids, and messages shown only to the person who tried.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../core/logger.js';
import { textsFor, type Locale } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import type { FieldErrors, FieldProblem, PayoutFieldName, PayoutRefusal, PayoutRefusalCode, RefusalDetails } from '../../payouts/index.js';
import { PAYOUT_FIELD_BLOCKS } from '../ids.js';
import { describeFieldProblem, fieldName } from './payout-field-problems.js';
import { escapeMrkdwn } from '../views/text.js';
import { notice } from '../views/notice.js';
import type { Surface } from '../views/text.js';

function fieldProblems(errors: FieldErrors, locale: Locale): Array<[PayoutFieldName, string]> {
  return (Object.entries(errors) as Array<[PayoutFieldName, FieldProblem | undefined]>).flatMap(([field, problem]) =>
    problem === undefined
      ? []
      : [[field, describeFieldProblem(locale, field, problem, (refusal) => refusalMessage(refusal, locale))] as [PayoutFieldName, string]],
  );
}

/** `response_action: "errors"` wants messages keyed by block_id, in the reader's language. */
export function fieldErrorsByBlock(errors: FieldErrors, locale: Locale): Record<string, string> {
  return Object.fromEntries(fieldProblems(errors, locale).map(([field, message]) => [PAYOUT_FIELD_BLOCKS[field], message]));
}

/** A refusal as lines for the top of the form: one per field, or the refusal itself. */
export function refusalProblems(refusal: PayoutRefusal, locale: Locale): string[] {
  const t = textsFor(locale);
  const lines = fieldProblems(refusal.errors ?? {}, locale).map(([field, problem]) =>
    t('payoutRequest.problemLine', { field: fieldName(locale, field), problem }),
  );
  return lines.length > 0 ? lines : [refusalMessage(refusal, locale)];
}

/** What the person who tried reads when an action was refused; it changed nothing. */
export function refusalText(refusal: RefusalFacts, locale: Locale = 'en'): string {
  return `:no_entry: ${escapeMrkdwn(refusalMessage(refusal, locale))}`;
}

/** A refusal as the domain gives it: a code and the facts to tell it with. */
export type RefusalFacts = { code: PayoutRefusalCode; details?: RefusalDetails | undefined };

/**
 * A refusal in the reader's language, as plain text (escape it for mrkdwn). Amounts come as minor
 * units and are written the reader's way here. Codes of the request side (form validation) come
 * first; those of approving, rejecting, cancelling, retrying and likely matches follow.
 */
export function refusalMessage(refusal: RefusalFacts, locale: Locale = 'en'): string {
  const t = textsFor(locale);
  const facts = refusal.details ?? {};
  const id = facts.payoutId ?? '?';
  const money = (minor: number | undefined) => formatMinor(minor ?? 0, facts.currency ?? '', { locale });
  switch (refusal.code) {
    // The request side.
    case 'invalid':
      return t('payoutApproval.refusal.invalid');
    case 'duplicate_reference': {
      const kept = facts.reservedFor;
      if (kept?.kind === 'series') return t('payoutApproval.refusal.referenceReserved.series', { number: kept.number, id: kept.requestId });
      if (kept?.kind === 'bulk') return t('payoutApproval.refusal.referenceReserved.bulk', { row: kept.row, id: kept.batchId });
      return t('payoutApproval.refusal.duplicateReference');
    }
    case 'not_requester':
      return t('payoutApproval.refusal.notRequester');
    case 'over_max_amount':
      return facts.cause === 'not_configured'
        ? t('payoutApproval.refusal.noMaximum', { currency: facts.currency ?? '' })
        : t('payoutApproval.refusal.overMaximum', { max: money(facts.maxMinor) });
    case 'over_daily_limit':
      return facts.cause === 'not_configured'
        ? t('payoutApproval.refusal.noDailyLimit', { currency: facts.currency ?? '' })
        : t('payoutApproval.refusal.overDailyLimit', { limit: money(facts.limitMinor), left: money(facts.leftMinor) });
    case 'fleet_unavailable':
      return t('payoutApproval.refusal.fleetUnavailable');
    // The approval side and payout records.
    case 'not_found':
      return facts.payoutId ? t('payoutApproval.refusal.notFound', { id }) : t('payoutApproval.refusal.noSuchPayout');
    case 'not_approver':
      switch (facts.action) {
        case 'reject':
          return t('payoutApproval.refusal.notApprover.reject');
        case 'retry':
          return t('payoutApproval.refusal.notApprover.retry');
        case 'decide_match':
          return t('payoutApproval.refusal.notApprover.decideMatch');
        default:
          return t('payoutApproval.refusal.notApprover.approve');
      }
    case 'own_request':
      switch (facts.action) {
        case 'reject':
          return t('payoutApproval.refusal.ownRequest.reject');
        case 'retry':
          return t('payoutApproval.refusal.ownRequest.retry');
        case 'decide_match':
          return t('payoutApproval.refusal.ownRequest.decideMatch');
        default:
          return t('payoutApproval.refusal.ownRequest.approve');
      }
    case 'already_approved':
      return facts.action === 'retry' ? t('payoutApproval.refusal.alreadyAgreedToRetry', { id }) : t('payoutApproval.refusal.alreadyApproved');
    case 'expired':
      return t('payoutApproval.refusal.expired', { id });
    case 'not_pending':
      return movedOnText(locale, facts);
    case 'not_cancellable':
      return facts.cause === 'has_approval' ? t('payoutApproval.refusal.cancelHasApproval') : t('payoutApproval.refusal.cancelNotRequester');
    case 'not_retryable':
      switch (facts.cause) {
        case 'still_searching':
          return t('payoutApproval.refusal.stillSearching', { id });
        case 'requester_not_allowed':
          return t('payoutApproval.refusal.retryRequesterNotAllowed', { id });
        case 'roles_unavailable':
          return t('payoutApproval.refusal.retryRolesUnavailable', { id });
        default:
          return movedOnText(locale, facts);
      }
    case 'likely_match':
      return t('payoutApproval.refusal.likelyMatch');
    case 'no_such_match':
      return facts.cause === 'match_gone' ? t('payoutApproval.refusal.matchGone', { id }) : movedOnText(locale, facts);
    case 'reason_required':
      return facts.cause === 'too_long' ? t('payoutApproval.refusal.reasonTooLong') : t('payoutApproval.refusal.reasonTooShort');
    case 'duplicate_unchecked':
      return t('approvalSignals.refusal.duplicateUnchecked');
    case 'needs_senior':
      return t('approvalSignals.refusal.needsSenior');
    case 'could_not_check': {
      const problem = facts.searchProblem ?? '';
      return facts.action === 'retry'
        ? t('payoutApproval.refusal.couldNotCheckRetry', { id, problem })
        : t('payoutApproval.refusal.couldNotCheck', { problem });
    }
  }
}

/** `Payout PR-7K3F9Q was already sent.`: a request that has moved on, by its state. */
function movedOnText(locale: Locale, facts: RefusalDetails): string {
  const t = textsFor(locale);
  const id = facts.payoutId ?? '?';
  switch (facts.state) {
    case 'pending':
      return t('payoutApproval.refusal.state.pending', { id });
    case 'approved':
      return t('payoutApproval.refusal.state.approved', { id });
    case 'executing':
      return t('payoutApproval.refusal.state.executing', { id });
    case 'completed':
      return t('payoutApproval.refusal.state.completed', { id });
    case 'failed':
      return t('payoutApproval.refusal.state.failed', { id });
    case 'unknown':
      return t('payoutApproval.refusal.state.unknown', { id });
    case 'rejected':
      return t('payoutApproval.refusal.state.rejected', { id });
    case 'cancelled':
      return t('payoutApproval.refusal.state.cancelled', { id });
    default:
      return t('payoutApproval.refusal.state.expired', { id });
  }
}

/** Says something to one person in a channel without anyone else seeing it; a failure is only logged. */
export async function tellPrivately(
  client: WebClient,
  logger: Logger,
  surface: Surface,
  target: { channel: string | undefined; user: string },
  text: string,
): Promise<void> {
  const reply = notice(surface, text);
  const direct = () => client.chat.postMessage({ channel: target.user, text: reply.text, blocks: reply.blocks });
  try {
    if (!target.channel) await direct();
    else {
      // Slack shows an ephemeral message only to a member of the channel: anyone else hears by DM.
      await client.chat.postEphemeral({ channel: target.channel, user: target.user, text: reply.text, blocks: reply.blocks }).catch((error: unknown) => {
        if ((error as { data?: { error?: unknown } }).data?.error !== 'user_not_in_channel') throw error;
        return direct();
      });
    }
  } catch (error) {
    logger.warn({ err: error, userId: target.user }, 'could not tell a person why their payout action was refused');
  }
}
