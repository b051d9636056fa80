/**
 * Payout refusals and failures turned into Slack answers, in one place: field errors keyed by the
 * form's block ids, and messages shown only to the person who tried.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../logger.js';
import type { FieldErrors, PayoutFieldName, PayoutRefusal } from '../payouts/index.js';
import { PAYOUT_FIELD_BLOCKS } from './ids.js';
import { escapeMrkdwn } from './views/text.js';
import { notice } from './views/common.js';
import type { Surface } from './views/text.js';

const FIELD_LABELS: Record<PayoutFieldName, string> = {
  phone: 'Phone number', name: 'Name', countryCode: 'Country', operator: 'Operator', accountNumber: 'Account number',
  bankCode: 'Bank code', amount: 'Amount', currency: 'Currency', reference: 'Reference', note: 'Note',
};

/** `response_action: "errors"` wants messages keyed by block_id. */
export function fieldErrorsByBlock(errors: FieldErrors): Record<string, string> {
  const byBlock: Record<string, string> = {};
  for (const [field, message] of Object.entries(errors) as Array<[PayoutFieldName, string | undefined]>) {
    if (message !== undefined) byBlock[PAYOUT_FIELD_BLOCKS[field]] = message;
  }
  return byBlock;
}

/** A refusal as lines for the top of the form: one per field, or the refusal itself. */
export function refusalProblems(refusal: PayoutRefusal): string[] {
  const lines = Object.entries(refusal.errors ?? {}).map(([field, message]) => `${FIELD_LABELS[field as PayoutFieldName]}: ${message}`);
  return lines.length > 0 ? lines : [refusal.message];
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
