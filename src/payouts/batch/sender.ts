/**
 * Sends the rows of released batches, at most `ratePerSecond` rows a second across every replica,
 * each exactly once. A row is taken in one transaction that holds the one pace row (so replicas take
 * turns and the pace is shared) and makes the row's payout request, already approved with the batch's
 * approvals, linked to the batch: a row with a request is never taken again. The request is then sent
 * by the single payout's machinery (approved → executing → completed / failed / unknown), so a crash
 * leaves at worst an `approved` or `executing` request that recovery sends or reconciles, never a
 * second one. Pace and expiry are judged by the database's clock, which every replica shares.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { EventLoopTurns, type BackgroundTurns } from '../../runtime/turns.js';
import type { Db, Queryable } from '../../store/db.js';
import type { BatchEvent } from './service.js';
import type { PayoutBatch } from './model.js';
import { anyBatchToSend, appendBatchEvent, BATCH_PACE, findBatch, lockBatchPace, updateBatch } from './store.js';
import { newPayoutId } from '../identifiers.js';
import type { PayoutActionResult, PayoutDraft, PayoutRequest } from '../model.js';
import { insertApproval } from '../approval-store.js';
import { findRequest, insertWithFreshId, linkBatchRow } from '../repository.js';
import { changeRequest, recordEvent } from '../transitions.js';

export interface BatchSenderOptions {
  db: Db;
  clock: Clock;
  logger: Logger;
  ratePerSecond: number;
  /** Sends one approved request: the single payout's execution. */
  send: (request: PayoutRequest) => Promise<PayoutActionResult>;
  /** Told when a batch's progress changed (throttled) and when it finished. */
  announce: (batch: PayoutBatch, event: BatchEvent) => Promise<void>;
  /** Least time between two progress updates of one batch (default 2 s): Slack limits message edits. */
  progressEveryMs?: number;
  newId?: () => string;
  /** The bot's turns of the event loop, so that this background work lets Slack's waiting requests go first; turns of its own by default (tests). */
  turns?: BackgroundTurns;
}

type Take = { taken: PayoutRequest } | { waitMs: number } | { none: true };

export class BatchSender {
  private readonly lastProgress = new Map<string, number>();

  private readonly turns: BackgroundTurns;

  constructor(private readonly options: BatchSenderOptions) {
    this.turns = options.turns ?? new EventLoopTurns();
  }

  /**
   * Sends rows while there are rows due, waiting the pace between them; returns how many it sent.
   * `maxRows` bounds one call, so that a loop can stop between rows.
   */
  async sendDue(maxRows = 50, shouldStop: () => boolean = () => false): Promise<number> {
    // Most looks find nothing: one read, before any lock or transaction.
    if (!(await anyBatchToSend(this.options.db))) return 0;
    let sent = 0;
    while (sent < maxRows && !shouldStop()) {
      // A row's statements and rendering are background work: a turn of their own, after the Slack requests waiting.
      await this.turns.nextBackgroundTurn();
      const take = await this.takeRow();
      if ('none' in take) break;
      if ('waitMs' in take) {
        await this.options.clock.sleep(take.waitMs);
        continue;
      }
      await this.options.send(take.taken);
      sent += 1;
      await this.progress(take.taken.batch?.id ?? '');
    }
    await this.finishDone();
    return sent;
  }

  /** One transaction: the pace row, then the next waiting row of a sending batch, made into an approved request. */
  private async takeRow(): Promise<Take> {
    const { db, ratePerSecond } = this.options;
    const result = await db.transaction(async (tx): Promise<Take | { skip: true }> => {
      await lockBatchPace(tx);
      const {
        rows: [pace],
      } = await tx.query<{ wait_ms: number | string }>(
        'SELECT GREATEST(0, EXTRACT(EPOCH FROM (next_at - clock_timestamp())) * 1000) AS wait_ms FROM payout_batch_pace WHERE name = $1',
        [BATCH_PACE],
      );
      const waitMs = Math.ceil(Number(pace?.wait_ms ?? 0));
      if (waitMs > 0) return { waitMs };
      const {
        rows: [row],
      } = await tx.query<{ batch_id: string; row_number: number; draft: PayoutDraft | string; new_recipient: boolean }>(
        `SELECT r.batch_id, r.row_number, r.draft, r.new_recipient FROM payout_batch_rows r JOIN payout_batches b ON b.id = r.batch_id
         WHERE b.state = 'sending' AND r.request_id IS NULL AND r.skipped IS NULL
         ORDER BY b.requested_at, r.batch_id, r.row_number LIMIT 1 FOR UPDATE OF r SKIP LOCKED`,
      );
      if (!row) return { none: true };
      // Shares the batch's lock with a Stop in progress: either the stop waits for this row, or this row sees it stopped.
      const {
        rows: [batch],
      } = await tx.query<{ state: string }>('SELECT state FROM payout_batches WHERE id = $1 FOR SHARE', [row.batch_id]);
      if (batch?.state !== 'sending') return { skip: true };
      await tx.query("UPDATE payout_batch_pace SET next_at = GREATEST(next_at, clock_timestamp()) + $2 * interval '1 millisecond' WHERE name = $1", [
        BATCH_PACE,
        1000 / ratePerSecond,
      ]);
      const draft = typeof row.draft === 'string' ? (JSON.parse(row.draft) as PayoutDraft) : row.draft;
      const request = await this.materialise(tx, row.batch_id, Number(row.row_number), draft, row.new_recipient);
      return request ? { taken: request } : { skip: true };
    });
    return 'skip' in result ? { waitMs: 0 } : result;
  }

  /** The row's payout request, approved by the batch's approvers; undefined when its reference is taken. */
  private async materialise(tx: Queryable, batchId: string, rowNumber: number, draft: PayoutDraft, newRecipient: boolean): Promise<PayoutRequest | undefined> {
    const now = this.options.clock.now();
    const batch = await findBatch(tx, batchId);
    if (!batch) return undefined;
    const common = {
      draft,
      requestedBy: batch.requestedBy,
      requestedAt: batch.requestedAt ?? now,
      expiresAt: batch.expiresAt,
      requiredApprovals: batch.requiredApprovals,
      newRecipient,
      referenceGenerated: draft.reference.startsWith(`${batchId}-`),
    };
    const id = await insertWithFreshId(tx, common, this.options.newId ?? newPayoutId);
    if (!id) {
      await tx.query("UPDATE payout_batch_rows SET skipped = 'reference_used' WHERE batch_id = $1 AND row_number = $2", [batchId, rowNumber]);
      await appendBatchEvent(tx, { batchId, event: 'row_skipped', at: now, details: { row: rowNumber, reason: 'reference_used' } });
      return undefined;
    }
    await linkBatchRow(tx, id, batchId, rowNumber);
    for (const approval of batch.approvals) await insertApproval(tx, id, approval.userId, approval.at, approval.senior === true);
    await recordEvent(tx, id, { event: 'requested', userId: batch.requestedBy, details: { batchId, row: rowNumber, reference: draft.reference } }, now);
    const approved = await changeRequest(tx, id, { states: ['pending'] }, { state: 'approved' }, now, {
      event: 'approved',
      details: { batchId, approvers: batch.approvals.map((approval) => approval.userId) },
    });
    await tx.query('UPDATE payout_batch_rows SET request_id = $3 WHERE batch_id = $1 AND row_number = $2', [batchId, rowNumber, id]);
    return (await findRequest(tx, id)) ?? approved;
  }

  private async progress(batchId: string): Promise<void> {
    const now = this.options.clock.now().getTime();
    if (now - (this.lastProgress.get(batchId) ?? 0) < (this.options.progressEveryMs ?? 2000)) return;
    this.lastProgress.set(batchId, now);
    const batch = await findBatch(this.options.db, batchId);
    if (batch) await this.options.announce(batch, 'progress');
  }

  /**
   * Batches whose every row was taken (or skipped) and whose requests all left approved/executing
   * (and none waits, held by the gate before sending, for an approver) become done, once reconciliation is through with their unknown rows (each settled, or waiting for
   * a person's review): the results file then says what became of every row; one replica wins each, and it alone announces the end (the results file).
   */
  async finishDone(): Promise<PayoutBatch[]> {
    const { db } = this.options;
    const { rows } = await db.query<{ id: string }>(
      `SELECT b.id FROM payout_batches b WHERE b.state IN ('sending', 'stopped') AND b.results_sent_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM payout_batch_rows r WHERE r.batch_id = b.id AND r.request_id IS NULL AND r.skipped IS NULL)
         AND NOT EXISTS (SELECT 1 FROM payout_requests p WHERE p.batch_id = b.id
           AND (p.state IN ('approved', 'executing') OR (p.state = 'unknown' AND NOT p.needs_review) OR (p.state = 'pending' AND p.hold_reason IS NOT NULL)))
       LIMIT 20`,
    );
    const finished: PayoutBatch[] = [];
    for (const { id } of rows) {
      const now = this.options.clock.now();
      const done = await db.transaction(async (tx) => {
        const { rowCount } = await tx.query('UPDATE payout_batches SET results_sent_at = $2 WHERE id = $1 AND results_sent_at IS NULL', [id, now]);
        if (rowCount !== 1) return undefined;
        const moved = await updateBatch(tx, id, { states: ['sending'] }, { state: 'done', finishedAt: now }, now);
        await appendBatchEvent(tx, { batchId: id, event: 'finished', at: now });
        return moved ?? (await findBatch(tx, id));
      });
      if (!done) continue;
      this.lastProgress.delete(id);
      finished.push(done);
      await this.options.announce(done, 'finished');
    }
    return finished;
  }
}
