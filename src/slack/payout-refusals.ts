/**
 * Payout refusals and failures turned into Slack answers, in one place: field errors keyed by the
 * form's block ids, and messages shown only to the person who tried.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logger.js';
import { textsFor, type Locale } from '../i18n/index.js';
import type { FieldErrors, FieldProblem, PayoutFieldName, PayoutRefusal } from '../payouts/index.js';
import { PAYOUT_FIELD_BLOCKS } from './ids.js';
import { describeFieldProblem, fieldName } from './payout-field-problems.js';
import { escapeMrkdwn } from './views/text.js';
import { notice } from './views/common.js';
import type { Surface } from './views/text.js';

/** A policy refusal shown under a field (the daily limit under the amount), in words. */
function refusalWords(refusal: Pick<PayoutRefusal, 'message'>): string {
  return refusal.message;
}

function fieldProblems(errors: FieldErrors, locale: Locale): Array<[PayoutFieldName, string]> {
  return (Object.entries(errors) as Array<[PayoutFieldName, FieldProblem | undefined]>)
    .flatMap(([field, problem]) => (problem === undefined ? [] : [[field, describeFieldProblem(locale, field, problem, refusalWords)] as [PayoutFieldName, string]]));
}

/** `response_action: "errors"` wants messages keyed by block_id, in the reader's language. */
export function fieldErrorsByBlock(errors: FieldErrors, locale: Locale): Record<string, string> {
  return Object.fromEntries(fieldProblems(errors, locale).map(([field, message]) => [PAYOUT_FIELD_BLOCKS[field], message]));
}

/** A refusal as lines for the top of the form: one per field, or the refusal itself. */
export function refusalProblems(refusal: PayoutRefusal, locale: Locale): string[] {
  const t = textsFor(locale);
  const lines = fieldProblems(refusal.errors ?? {}, locale)
    .map(([field, problem]) => t('payoutRequest.problemLine', { field: fieldName(locale, field), problem }));
  return lines.length > 0 ? lines : [refusalWords(refusal)];
}

/** What the person who tried reads when an action was refused; it changed nothing. */
export function refusalText(refusal: Pick<PayoutRefusal, 'message'>): string {
  return `:no_entry: ${escapeMrkdwn(refusal.message)}`;
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
  try {
    if (target.channel) {
      await client.chat.postEphemeral({ channel: target.channel, user: target.user, text: reply.text, blocks: reply.blocks });
    } else {
      await client.chat.postMessage({ channel: target.user, text: reply.text, blocks: reply.blocks });
    }
  } catch (error) {
    logger.warn({ err: error, userId: target.user }, 'could not tell a person why their payout action was refused');
  }
}
