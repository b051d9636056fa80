/**
 * The payout domain's notifier over Slack: keeps the approval message true to the stored request
 * (posting it on the first change, updating it on every later one) and sends the requester a
 * direct message for each event they should hear of: the approval message in the channel's language
 * (`surface`), the direct messages in the requester's own. Slack work runs in a queue per request, so
 * that a slow Slack never holds up a domain change or a 3-second acknowledgement, and a failure is
 * logged without undoing anything.
 */
import type { WebClient } from '@slack/web-api';
import type { AccessList } from '../../config/config.js';
import type { Logger } from '../../core/logger.js';
import type { PayoutEventName, PayoutNotifier, PayoutRequestReader, PayoutRequest } from '../../payouts/index.js';
import { approverMentions, notToCall } from './approver-notices.js';
import type { ChannelInvites } from '../channel-invites.js';
import type { PersonLocales } from '../locales.js';
import { requestWaitingLine } from '../views/channel-invites.js';
import type { Surface } from '../views/text.js';
import { buildApprovalMessage } from '../views/payout-approval.js';
import type { ApprovalContext, SeniorCall } from '../views/approval-signals.js';
import { buildRequesterUpdate } from '../views/payout-updates.js';

export interface SlackPayoutNotifierOptions {
  client: WebClient;
  /** The approval channel's surface: its locale is CHANNEL_LOCALE. */
  surface: Surface;
  /** The requester's language, for their direct messages. */
  locales: PersonLocales;
  logger: Logger;
  /** Where the latest stored request is read and its approval message remembered. */
  requests: PayoutRequestReader;
  /** Unset: no approval message is posted (payouts are not configured), DMs still are. */
  approvalChannelId: string | undefined;
  /** FLEET_APPROVERS, whom a pending request's message mentions; unset when PAYOUT_MENTION_APPROVERS=false. */
  mentions?: AccessList | undefined;
  /** How many people besides `requestedBy` can approve (undefined when unknown): the message says when too few. */
  approversAvailable?: ((requestedBy: string) => Promise<number | undefined>) | undefined;
  /** PAYOUT_DUPLICATE_WINDOW_HOURS, said in the possible-duplicate line. */
  duplicateWindowHours?: number | undefined;
  /** The senior approvers a request above PAYOUT_SENIOR_APPROVAL_ABOVE calls for; undefined below it. */
  /** Whom to call above the senior tier, by the amount or the day's totals of the signals. */
  seniorCall?: ((request: PayoutRequest, dayTotals?: { requesterMinor: number; recipientMinor: number }) => SeniorCall | undefined) | undefined;
  /** Remembers an approval channel nobody invited the bot to (`not_in_channel`); the requester is told to invite it. */
  invites?: ChannelInvites | undefined;
}

/** Counted only while approvers are still needed; a failed count says nothing. */
export async function approversAvailable(
  options: { approversAvailable?: ((requestedBy: string) => Promise<number | undefined>) | undefined; logger: Logger },
  pending: { state: string; requestedBy: string },
): Promise<number | undefined> {
  if (pending.state !== 'pending' || !options.approversAvailable) return undefined;
  try {
    return await options.approversAvailable(pending.requestedBy);
  } catch (error) {
    options.logger.warn({ err: error }, 'could not count the people who can approve');
    return undefined;
  }
}

// Enough to catch up with a change made by another replica during an update, without looping on a busy request.
const MAX_REFRESHES = 3;

export class SlackPayoutNotifier implements PayoutNotifier {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly options: SlackPayoutNotifierOptions) {}

  async changed(request: PayoutRequest, event: PayoutEventName, actor?: string): Promise<void> {
    this.enqueue(request.id, () => this.publish(request, event, actor));
  }

  /**
   * Posts the approval message of a pending request that has none (its first post failed), so that
   * approvers still see it. Queued behind the request's other updates, so it never posts twice.
   */
  repostIfMissing(request: PayoutRequest): void {
    if (request.state !== 'pending' || request.approvalMessage || !this.options.approvalChannelId) return;
    this.enqueue(request.id, () => this.refreshApprovalMessage(request));
  }

  /** Draws the approval message again from the stored request (a scheduled payout's occurrence changed). */
  refresh(request: PayoutRequest): void {
    if (!request.approvalMessage) return;
    this.enqueue(request.id, () => this.refreshApprovalMessage(request));
  }

  private enqueue(id: string, work: () => Promise<void>): void {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => this.options.logger.error({ err: error, payoutId: id }, 'payout notification failed'));
    this.queues.set(id, next);
    void next.finally(() => {
      if (this.queues.get(id) === next) this.queues.delete(id);
    });
  }

  /** Resolves once every queued Slack update has been tried (used when stopping and by tests). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  private async publish(snapshot: PayoutRequest, event: PayoutEventName, actor: string | undefined): Promise<void> {
    if (snapshot.batch) {
      // A bulk row speaks through its batch's one message; it gets a message of its own only when an
      // approver must look at it (unknown past the window, a likely match, held by the gate before
      // sending), or already has one.
      if (snapshot.approvalMessage || event === 'needs_review' || event === 'likely_match' || event === 'held') await this.refreshApprovalMessage(snapshot);
      return;
    }
    await this.refreshApprovalMessage(snapshot);
    await this.tellRequester(snapshot, event, actor);
  }

  /**
   * Renders the request as stored now, not as it was at the event: the message must show the truth.
   * Another replica may change the request and update the message while this update is on its way,
   * and Slack keeps whichever update lands last; so after each update the request is read again,
   * and shown again if it changed meanwhile.
   */
  private async refreshApprovalMessage(snapshot: PayoutRequest): Promise<void> {
    let shown = (await this.latest(snapshot.id)) ?? snapshot;
    for (let round = 0; round < MAX_REFRESHES; round += 1) {
      if (!(await this.showApprovalMessage(shown))) return;
      const stored = await this.latest(snapshot.id);
      if (!stored || stored.version === shown.version) return;
      shown = stored;
    }
  }

  private async latest(id: string): Promise<PayoutRequest | undefined> {
    try {
      return await this.options.requests.get(id);
    } catch (error) {
      this.options.logger.warn({ err: error, payoutId: id }, 'could not re-read a payout for its approval message');
      return undefined;
    }
  }

  /** Posts or updates the approval message; false when Slack refused or there is nowhere to post. */
  private async showApprovalMessage(request: PayoutRequest): Promise<boolean> {
    const { client, surface, logger, requests, approvalChannelId } = this.options;
    const message = buildApprovalMessage(surface, request, {
      approvers: approverMentions(this.options.mentions, notToCall(request)),
      approversAvailable: await approversAvailable(this.options, request),
      context: await this.context(request),
    });
    try {
      if (request.approvalMessage) {
        await client.chat.update({ channel: request.approvalMessage.channel, ts: request.approvalMessage.ts, text: message.text, blocks: message.blocks });
        return true;
      }
      if (!approvalChannelId) return false;
      const send = () => client.chat.postMessage({ channel: approvalChannelId, text: message.text, blocks: message.blocks, unfurl_links: false });
      const posted = await (this.options.invites ? this.options.invites.post(approvalChannelId, 'approvals', send) : send());
      if (!posted.channel || !posted.ts) return true;
      if (!(await requests.setApprovalMessage(request.id, posted.channel, posted.ts))) {
        // Another replica posted first and keeps its message up to date: a second copy would go stale.
        logger.info({ payoutId: request.id }, 'another process posted this approval message first; removing ours');
        await client.chat.delete({ channel: posted.channel, ts: posted.ts });
      }
      return true;
    } catch (error) {
      logger.error({ err: error, payoutId: request.id, state: request.state }, 'could not update the payout approval message; the payout itself is unaffected');
      return false;
    }
  }

  /** What approvers should notice, read in one query; a failed read leaves it out rather than the message. */
  private async context(request: PayoutRequest): Promise<ApprovalContext> {
    const { requests, logger, duplicateWindowHours, seniorCall } = this.options;
    try {
      const signals = await requests.signals(request);
      return { signals, duplicateWindowHours, senior: seniorCall?.(request, signals.dayTotals) };
    } catch (error) {
      logger.warn({ err: error, payoutId: request.id }, 'could not read what approvers should notice about a payout');
      return { duplicateWindowHours, senior: seniorCall?.(request) };
    }
  }

  private async tellRequester(request: PayoutRequest, event: PayoutEventName, actor: string | undefined): Promise<void> {
    const { client, surface, locales, logger, approvalChannelId } = this.options;
    // Most events need no message: the requester's language is asked only for those that do.
    if (!buildRequesterUpdate(surface, request, event, actor, approvalChannelId)) return;
    try {
      const reader: Surface = { ...surface, locale: await locales.forPerson(request.requestedBy) };
      const update = buildRequesterUpdate(reader, request, event, actor, approvalChannelId);
      if (!update) return;
      const waiting = event === 'requested' && approvalChannelId && this.options.invites?.isMissing(approvalChannelId);
      if (waiting) {
        // Slack refused the approval message: the receipt says so, and how to let approvers see it.
        const line = requestWaitingLine(reader.locale, approvalChannelId, await this.options.invites?.botUserId());
        update.blocks = [{ type: 'section', text: { type: 'mrkdwn', text: line } }, ...update.blocks];
        update.text = `${update.text} ${line}`;
      }
      // A user id as the channel is the bot's direct message with that person (chat:write suffices).
      await client.chat.postMessage({ channel: request.requestedBy, text: update.text, blocks: update.blocks, unfurl_links: false });
    } catch (error) {
      logger.error({ err: error, payoutId: request.id, event }, 'could not send the requester a direct message about their payout');
    }
  }
}
