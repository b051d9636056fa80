/**
 * The reminder an approver gets by direct message before a request they have not decided expires:
 * what it is, its amount in the approver's language, when it expires, and a link to its approval
 * message (or, when no link could be had, the channel it is in).
 */
import { textsFor } from '../../i18n/index.js';
import { formatMinor } from '../../core/money.js';
import type { PayoutBatch, PayoutRequest } from '../../payouts/index.js';
import { notice, type Reply } from './notice.js';
import { payoutSummary } from './payout-details.js';
import { escapeMrkdwn, mentionChannel, mentionUser, sandboxMarked, type Surface } from './text.js';
import { slackDate } from './dates.js';

/** Where the approval message is: its permalink, or its channel. */
export type ApprovalMessagePlace = { url: string } | { channel: string } | undefined;

export type ReminderSubject = { kind: 'payout'; request: PayoutRequest } | { kind: 'batch'; batch: PayoutBatch };

export function buildApprovalReminder(surface: Surface, subject: ReminderSubject, place: ApprovalMessagePlace): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const where =
    place === undefined
      ? ''
      : 'url' in place
        ? t('payoutApproval.reminder.link', { url: place.url.replace(/[<>|]/g, '') })
        : t('payoutApproval.reminder.inChannel', { channel: mentionChannel(place.channel) });
  let title: string;
  let line: string;
  if (subject.kind === 'payout') {
    const { request } = subject;
    title = t('payoutApproval.reminder.title', { id: request.id });
    line = t('payoutApproval.reminder.text', {
      user: mentionUser(request.requestedBy),
      summary: payoutSummary(request, locale),
      id: request.id,
      expires: slackDate(request.expiresAt, undefined, surface),
      where,
    });
  } else {
    const { batch } = subject;
    const totals = [...batch.totals].map(([currency, minor]) => `*${escapeMrkdwn(formatMinor(minor, currency, { locale }).trim())}*`).join(' · ');
    title = t('payoutBatch.reminder.title', { id: batch.id });
    line = t('payoutBatch.reminder.text', {
      user: mentionUser(batch.requestedBy),
      count: batch.rowCount,
      id: batch.id,
      totals,
      expires: slackDate(batch.expiresAt, undefined, surface),
      where,
    });
  }
  return { ...notice(surface, line), text: sandboxMarked(surface, title) };
}
