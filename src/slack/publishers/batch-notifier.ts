/**
 * Speaks for bulk payouts in Slack: one approval message per batch in the approval channel (posted
 * when it is submitted, with its rows as a CSV in the thread, then edited at every change and as rows
 * are sent), direct messages to the requester, and the results file at the end (sent again after a
 * Slack failure, never twice), with a receipt in the message's thread.
 */
import type { WebClient } from '@slack/web-api';
import type { AccessList } from '../../config/config.js';
import { textsFor } from '../../i18n/index.js';
import type { Logger } from '../../core/logger.js';
import { minorToPlain } from '../../core/money.js';
import {
  railOf,
  type BatchEvent,
  type BatchNotifier,
  type BatchProgress,
  type PayoutBatchService,
  type PayoutBatch,
  type PayoutDraft,
} from '../../payouts/index.js';
import { csvText, sendCsvToPerson, shareCsv } from '../files/csv-to-person.js';
import { approverMentions, notToCall } from './approver-notices.js';
import type { ChannelInvites } from '../channel-invites.js';
import type { PersonLocales } from '../locales.js';
import { approversAvailable } from './payout-notifier.js';
import type { SeniorCall } from '../views/approval-signals.js';
import { buildBatchApprovalMessage } from '../views/payout-batch-message.js';
import { escapeWithin, mentionUser, type Surface } from '../views/text.js';

export interface SlackBatchNotifierOptions {
  client: WebClient;
  surface: Surface;
  locales: PersonLocales;
  logger: Logger;
  approvalChannelId: string | undefined;
  /** Read lazily: the service is built with this notifier. */
  batches: () => PayoutBatchService;
  /** FLEET_APPROVERS, whom a pending batch's message mentions; unset when PAYOUT_MENTION_APPROVERS=false. */
  mentions?: AccessList | undefined;
  /** How many people besides `requestedBy` can approve (undefined when unknown): the message says when too few. */
  approversAvailable?: ((requestedBy: string) => Promise<number | undefined>) | undefined;
  /** The senior approvers a batch above PAYOUT_SENIOR_APPROVAL_ABOVE calls for; undefined below it. */
  seniorCall?: ((batch: PayoutBatch) => SeniorCall | undefined) | undefined;
  /** Remembers an approval channel nobody invited the bot to (`not_in_channel`), until a post there works. */
  invites?: ChannelInvites | undefined;
}

const DM_EVENTS: ReadonlySet<BatchEvent> = new Set(['approved', 'released', 'rejected', 'expired', 'stopped']);

export class SlackBatchNotifier implements BatchNotifier {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(private readonly options: SlackBatchNotifierOptions) {}

  async changed(batch: PayoutBatch, event: BatchEvent, actor?: string): Promise<void> {
    await this.enqueue(batch.id, () => this.publish(batch, event, actor));
  }

  /**
   * Posts the approval message of a pending bulk payout that has none (its first post failed, say the
   * bot was not invited yet), with its rows in the thread, so that approvers still see it. Queued
   * behind the batch's other updates, and read again from the store first, so it never posts twice.
   */
  repostIfMissing(batch: PayoutBatch): void {
    if (batch.state !== 'pending' || batch.approvalMessage || !this.options.approvalChannelId) return;
    void this.enqueue(batch.id, async () => {
      const current = await this.options.batches().get(batch.id);
      if (current?.state === 'pending' && !current.approvalMessage) await this.showMessage(current, true);
    });
  }

  /** Resolves once every queued Slack update has been tried (used when stopping and by tests). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()]);
  }

  private enqueue(id: string, work: () => Promise<void>): Promise<void> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const next = previous.then(work).catch((error: unknown) => this.options.logger.error({ err: error, batchId: id }, 'bulk payout notification failed'));
    this.queues.set(id, next);
    void next.finally(() => {
      if (this.queues.get(id) === next) this.queues.delete(id);
    });
    return next;
  }

  private async publish(snapshot: PayoutBatch, event: BatchEvent, actor: string | undefined): Promise<void> {
    const batches = this.options.batches();
    const batch = (await batches.get(snapshot.id)) ?? snapshot;
    await this.showMessage(batch, event === 'requested');
    if (DM_EVENTS.has(event)) await this.tellRequester(batch, event, actor);
    if (event === 'finished') await this.deliverResults(batch);
  }

  /**
   * The results file by DM, once: claimed first (no other attempt under way, none delivered), then
   * marked delivered, then a receipt in the approval message's thread. A failed attempt is logged
   * and left for the service's retry; a receipt that fails is only logged (the DM went).
   */
  private async deliverResults(batch: PayoutBatch): Promise<void> {
    const batches = this.options.batches();
    if (!(await batches.claimResults(batch.id))) return;
    let progress: BatchProgress;
    try {
      progress = await this.sendResults(batch);
    } catch (error) {
      this.options.logger.warn({ err: error, batchId: batch.id }, 'could not send the results of a bulk payout; they will be sent again');
      return;
    }
    await batches.resultsDelivered(batch.id);
    if (!batch.approvalMessage) return;
    const t = textsFor(this.options.surface.locale);
    await this.options.client.chat
      .postMessage({
        channel: batch.approvalMessage.channel,
        thread_ts: batch.approvalMessage.ts,
        unfurl_links: false,
        text: t('payoutBatch.receipt', { id: batch.id, user: mentionUser(batch.requestedBy), ...progress }),
      })
      .catch((error: unknown) => this.options.logger.warn({ err: error, batchId: batch.id }, "could not post the receipt of a bulk payout's results"));
  }

  private async showMessage(batch: PayoutBatch, withRows: boolean): Promise<void> {
    const { client, surface, approvalChannelId } = this.options;
    const batches = this.options.batches();
    const approvers = approverMentions(this.options.mentions, notToCall(batch));
    const message = buildBatchApprovalMessage(surface, {
      batch,
      ...(await batches.details(batch.id)),
      approvers,
      approversAvailable: await approversAvailable(this.options, batch),
      senior: this.options.seniorCall?.(batch),
    });
    if (batch.approvalMessage) {
      await client.chat.update({ channel: batch.approvalMessage.channel, ts: batch.approvalMessage.ts, text: message.text, blocks: message.blocks });
      return;
    }
    if (!approvalChannelId) return;
    const send = () => client.chat.postMessage({ channel: approvalChannelId, text: message.text, blocks: message.blocks, unfurl_links: false });
    const posted = await (this.options.invites ? this.options.invites.post(approvalChannelId, 'approvals', send) : send());
    if (!posted.channel || !posted.ts) return;
    if (!(await batches.setMessage(batch.id, 'approval', posted.channel, posted.ts))) {
      await client.chat.delete({ channel: posted.channel, ts: posted.ts });
      return;
    }
    if (withRows) await this.shareRows(batch, posted.channel, posted.ts);
  }

  /** The rows as they will be sent, in the approval message's thread. */
  private async shareRows(batch: PayoutBatch, channel: string, ts: string): Promise<void> {
    const t = textsFor(this.options.surface.locale);
    const rows = await this.options.batches().rows(batch.id);
    const header = ['row', 'kind', 'number', 'provider', 'name', 'country', 'amount', 'currency', 'reference', 'note', 'new_recipient'];
    const lines = rows.map(({ rowNumber, draft, newRecipient }) => [
      String(rowNumber),
      ...bulkRailCells(draft),
      draft.recipient.name,
      draft.recipient.countryCode,
      minorToPlain(draft.amountMinor, draft.currency),
      draft.currency,
      draft.reference,
      draft.note,
      newRecipient ? 'yes' : '',
    ]);
    await shareCsv(
      this.options.client,
      channel,
      {
        filename: `${batch.id.toLowerCase()}-rows.csv`,
        title: t('payoutBatch.rowsFileTitle'),
        comment: t('payoutBatch.rowsFileComment', { id: batch.id }),
        text: csvText(header, lines),
      },
      ts,
    ).catch((error: unknown) => this.options.logger.warn({ err: error, batchId: batch.id }, 'could not share the rows of a bulk payout'));
  }

  private async tellRequester(batch: PayoutBatch, event: BatchEvent, actor: string | undefined): Promise<void> {
    const { client, locales } = this.options;
    const t = textsFor(await locales.forPerson(batch.requestedBy));
    const user = mentionUser(actor ?? '');
    const text =
      event === 'approved'
        ? t('payoutBatch.dm.approved', { user, id: batch.id, approvals: batch.approvals.length, required: batch.requiredApprovals })
        : event === 'released'
          ? t('payoutBatch.dm.released', { id: batch.id })
          : event === 'rejected'
            ? t('payoutBatch.dm.rejected', { id: batch.id, user, reason: escapeWithin(batch.rejectReason ?? '', 500) })
            : event === 'stopped'
              ? t('payoutBatch.dm.stopped', { id: batch.id, user })
              : t('payoutBatch.dm.expired', { id: batch.id });
    const opened = await client.conversations.open({ users: batch.requestedBy });
    if (opened.channel?.id) await client.chat.postMessage({ channel: opened.channel.id, text });
  }

  /** The results file, by DM: row, reference, outcome, transaction id or reason; resolves with the counts it states. */
  private async sendResults(batch: PayoutBatch): Promise<BatchProgress> {
    const batches = this.options.batches();
    const t = textsFor(await this.options.locales.forPerson(batch.requestedBy));
    const results = await batches.results(batch.id);
    const progress = (await batches.details(batch.id)).progress;
    const filename = `${batch.id.toLowerCase()}-results.csv`;
    await sendCsvToPerson(this.options.client, batch.requestedBy, {
      filename,
      title: t('payoutBatch.resultsFileTitle'),
      comment: t('payoutBatch.dm.finished', { id: batch.id, ...progress, file: `\`${filename}\`` }),
      text: csvText(
        [t('payoutBatch.csv.row'), t('payoutBatch.csv.reference'), t('payoutBatch.csv.outcome'), t('payoutBatch.csv.transaction')],
        results.map((row) => [String(row.rowNumber), row.reference, t(`payoutBatch.outcome.${row.outcome}`), row.transactionId ?? row.reason ?? '']),
      ),
    });
    return progress;
  }
}

/** A row's kind, number and provider as the bulk file writes them (`mobile`, the phone, the operator). */
function bulkRailCells(draft: PayoutDraft): [string, string, string] {
  const rail = railOf(draft.kind);
  const { number, provider } = rail.bulkCells(draft);
  return [rail.bulkWords[0] ?? draft.kind, number, provider];
}
