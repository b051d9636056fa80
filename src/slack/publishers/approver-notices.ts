/**
 * Telling approvers in Slack: whom a new request's approval message mentions, who counts as an
 * approver to remind, and the reminder itself, sent by direct message in the approver's language.
 */
import type { WebClient } from '@slack/web-api';
import type { AccessList } from '../../config/config.js';
import type { Logger } from '../../core/logger.js';
import type { ApprovalReminder, ApproverDirectory, ReminderSender } from '../../payouts/index.js';
import type { AccessControl } from '../access.js';
import type { PersonLocales } from '../locales.js';
import { buildApprovalReminder, type ApprovalMessagePlace } from '../views/approval-reminder.js';
import { mentionUser, type Surface } from '../views/text.js';

/** Listed approvers mentioned by name at most; beyond that, a user group is the way to call many. */
export const MAX_MENTIONED_APPROVERS = 10;

const GROUP_ID = /^S[A-Z0-9]{2,}$/;

/**
 * The mentions that call a request's approvers: every user group FLEET_APPROVERS names
 * (`<!subteam^ID>`, Slack's syntax for a group mention) and up to 10 of the users it lists who may
 * still approve, never the requester nor whoever already approved (`notToCall`); empty for `*` alone
 * (nobody in particular), or when `list` is undefined (turned off). A group is called whole.
 */
export function approverMentions(list: AccessList | undefined, notToCall: readonly string[]): string {
  if (!list) return '';
  const skipped = new Set(notToCall);
  const groups = [...list.groups].filter((group) => GROUP_ID.test(group)).map((group) => `<!subteam^${group}>`);
  const users = [...list.users]
    .filter((user) => !skipped.has(user))
    .slice(0, MAX_MENTIONED_APPROVERS)
    .map(mentionUser);
  return [...groups, ...users].join(' ');
}

/** Who is not called to approve a request or a bulk payout: its requester and whoever already approved it. */
export function notToCall(subject: { requestedBy: string; approvals: ReadonlyArray<{ userId: string; revokedAt?: Date | undefined }> }): string[] {
  const standing = subject.approvals.filter((approval) => approval.revokedAt === undefined).map((approval) => approval.userId);
  return [subject.requestedBy, ...standing];
}

/** Everyone FLEET_APPROVERS names, its groups' members included (cached a minute); undefined for `*`. */
export function approverDirectory(access: AccessControl, list: AccessList): ApproverDirectory {
  return {
    approvers: async () => {
      const { everyone, users } = await access.everyoneIn(list);
      return everyone ? undefined : users;
    },
  };
}

export interface SlackReminderSenderOptions {
  client: WebClient;
  /** The approval channel's surface; each reminder is written in its reader's language. */
  surface: Surface;
  locales: PersonLocales;
  logger: Logger;
}

/** Sends reminders by direct message; a failure is thrown back to the sweep, which logs it. */
export class SlackReminderSender implements ReminderSender {
  constructor(private readonly options: SlackReminderSenderOptions) {}

  async remind(reminder: ApprovalReminder): Promise<void> {
    const { client, surface, locales } = this.options;
    const subject = reminder.kind === 'payout' ? { kind: 'payout' as const, request: reminder.request } : { kind: 'batch' as const, batch: reminder.batch };
    const message = reminder.kind === 'payout' ? reminder.request.approvalMessage : reminder.batch.approvalMessage;
    const reader: Surface = { ...surface, locale: await locales.forPerson(reminder.approverId) };
    const place = message ? await this.placeOf(message) : undefined;
    const reply = buildApprovalReminder(reader, subject, place);
    // A user id as the channel is the bot's direct message with that person (chat:write suffices).
    await client.chat.postMessage({ channel: reminder.approverId, text: reply.text, blocks: reply.blocks, unfurl_links: false });
  }

  /** The approval message's link; its channel when Slack gives none. */
  private async placeOf(message: { channel: string; ts: string }): Promise<ApprovalMessagePlace> {
    try {
      const answer = await this.options.client.chat.getPermalink({ channel: message.channel, message_ts: message.ts });
      if (answer.permalink && /^https:\/\/\S+$/.test(answer.permalink)) return { url: answer.permalink };
    } catch (error) {
      this.options.logger.warn({ err: error, channel: message.channel }, 'could not get the link of an approval message; the reminder names its channel');
    }
    return { channel: message.channel };
  }
}
