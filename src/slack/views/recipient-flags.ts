/**
 * What approvers must notice about a payout's recipient, on the review screen, the approval message
 * and the approve window: details edited after a saved recipient was picked, never paid before, or
 * known under another name (the Fleet API cannot check names, so a person must).
 */
import type { KnownBlock } from '@slack/types';
import { textsFor, type Locale } from '../../i18n/index.js';
import type { ChangedDetails, PayoutKind } from '../../payouts/index.js';
import { changedDetailsLine } from './approval-signals.js';
import { railWording } from './rail-wording.js';
import { escapeWithin } from './text.js';

const NAME_MAX = 200;

export interface RecipientFlags {
  newRecipient: boolean;
  /** The name of the recipient's last completed payout, when it differs from this one's. */
  previousName: string | undefined;
  /** Filled from a saved recipient, then edited: what changed from it. */
  changedDetails?: ChangedDetails | undefined;
}

/** One section per flag that applies; none for a known recipient under the same name. */
export function recipientFlagBlocks(kind: PayoutKind, flags: RecipientFlags, locale: Locale): KnownBlock[] {
  const t = textsFor(locale);
  const lines: string[] = [];
  if (flags.changedDetails) lines.push(changedDetailsLine(flags.changedDetails, locale));
  const wording = railWording(kind);
  if (flags.newRecipient) lines.push(wording.newRecipient(t));
  if (flags.previousName !== undefined) {
    const name = escapeWithin(flags.previousName, NAME_MAX, { oneLine: true });
    lines.push(wording.otherName(t, name));
  }
  return lines.map((text) => ({ type: 'section', text: { type: 'mrkdwn', text } }));
}

/** The flags a stored request carries. */
export function requestFlags(request: {
  newRecipient: boolean;
  previousRecipientName: string | undefined;
  changedDetails?: ChangedDetails | undefined;
}): RecipientFlags {
  return { newRecipient: request.newRecipient, previousName: request.previousRecipientName, changedDetails: request.changedDetails };
}
