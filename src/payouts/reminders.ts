/**
 * Reminding approvers before a request expires: `reminderMinutes` before its expiry, each approver
 * who has not decided a pending payout request or bulk payout gets one reminder. Each reminder is
 * claimed in the database before it is sent, so that it goes once however many replicas sweep and
 * however often they restart.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db } from '../store/db.js';
import { findBatch } from './batch/store.js';
import type { PayoutBatch } from './batch/model.js';
import type { PayoutRequest } from './model.js';
import { findRequest } from './repository.js';

/** What one reminder is about: a single request or a bulk payout, and who it goes to. */
export type ApprovalReminder = { kind: 'payout'; request: PayoutRequest; approverId: string } | { kind: 'batch'; batch: PayoutBatch; approverId: string };

/** Sends one reminder (the Slack layer, by direct message); throws when it could not. */
export interface ReminderSender {
  remind(reminder: ApprovalReminder): Promise<void>;
}

/** Everyone who may approve now, or `undefined` when everyone may (`*`): then nobody is reminded. */
export interface ApproverDirectory {
  approvers(): Promise<ReadonlySet<string> | undefined>;
}

export interface ApprovalRemindersOptions {
  db: Db;
  clock: Clock;
  /** Minutes before expiry (PAYOUT_APPROVAL_REMINDER_MINUTES); 0 turns reminders off. */
  reminderMinutes: number;
  approvers: ApproverDirectory;
  sender: ReminderSender;
  logger: Logger;
  /** Requests and bulk payouts looked at per sweep (default 100); the next sweep (30 s later) takes the rest. */
  sweepLimit?: number;
}

const SWEEP_LIMIT = 100;

export class ApprovalReminders {
  constructor(private readonly options: ApprovalRemindersOptions) {}

  /**
   * Sends the reminders that are due: for each pending request and batch whose expiry is at most
   * `reminderMinutes` away (and whose whole life is longer than that), one to each approver other
   * than the requester who has not approved it. Returns how many were sent.
   */
  async sendDue(): Promise<number> {
    const { reminderMinutes, db, clock } = this.options;
    if (reminderMinutes <= 0) return 0;
    const now = clock.now();
    const remindFrom = new Date(now.getTime() + reminderMinutes * 60_000);
    const approvers = await this.options.approvers.approvers();
    if (!approvers || approvers.size === 0) return 0;
    const limit = Math.max(1, Math.floor(this.options.sweepLimit ?? SWEEP_LIMIT));
    // Only subjects with an approver still to remind (not the requester, not approved, not claimed):
    // the ones reminded already would otherwise keep their places, and later ones expire unreminded.
    const due = (table: 'payout_requests' | 'payout_batches', approvals: string, extra: string) =>
      db.query<{ id: string }>(
        `SELECT t.id FROM ${table} t
       WHERE t.state = 'pending' ${extra} AND t.expires_at > $1 AND t.expires_at <= $2 AND t.requested_at < t.expires_at - ($3 * interval '1 minute')
         AND EXISTS (
           SELECT 1 FROM unnest($4::text[]) AS approver (id)
            WHERE approver.id <> t.requested_by
              AND NOT EXISTS (SELECT 1 FROM ${approvals} WHERE approver.id = user_id AND t.id = subject)
              AND NOT EXISTS (SELECT 1 FROM payout_approval_reminders r WHERE r.subject_id = t.id AND r.approver_id = approver.id))
       ORDER BY t.expires_at LIMIT ${limit}`,
        [now, remindFrom, reminderMinutes, [...approvers]],
      );
    const [payouts, batches] = await Promise.all([
      due('payout_requests', '(SELECT request_id AS subject, user_id FROM payout_approvals) AS a', 'AND t.batch_id IS NULL'),
      due('payout_batches', '(SELECT batch_id AS subject, user_id FROM payout_batch_approvals) AS a', ''),
    ]);
    if (payouts.rows.length === 0 && batches.rows.length === 0) return 0;
    let sent = 0;
    for (const { id } of payouts.rows) {
      const request = await findRequest(db, id);
      if (!request || request.state !== 'pending') continue;
      const decided = new Set([request.requestedBy, ...request.approvals.map((approval) => approval.userId)]);
      for (const approverId of approvers) {
        if (!decided.has(approverId) && (await this.claimAndSend({ kind: 'payout', request, approverId }, id))) sent += 1;
      }
    }
    for (const { id } of batches.rows) {
      const batch = await findBatch(db, id);
      if (!batch || batch.state !== 'pending') continue;
      const decided = new Set([batch.requestedBy, ...batch.approvals.map((approval) => approval.userId)]);
      for (const approverId of approvers) {
        if (!decided.has(approverId) && (await this.claimAndSend({ kind: 'batch', batch, approverId }, id))) sent += 1;
      }
    }
    return sent;
  }

  /**
   * Claims the reminder, then sends it. A reminder whose sending fails after the claim is not sent
   * again: a second message is worse than a missing one, and the approval message already named
   * the approvers. The claim keeps `sent_at` empty, and the log says who missed it.
   */
  private async claimAndSend(reminder: ApprovalReminder, subjectId: string): Promise<boolean> {
    const { db, clock, logger, sender } = this.options;
    const claimed = await db.query(
      `INSERT INTO payout_approval_reminders (subject_id, subject_kind, approver_id, claimed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING subject_id`,
      [subjectId, reminder.kind, reminder.approverId, clock.now()],
    );
    if (claimed.rowCount === 0) return false;
    try {
      await sender.remind(reminder);
    } catch (error) {
      logger.warn({ err: error, subjectId, approverId: reminder.approverId }, 'could not send an approval reminder; it is not sent again');
      return false;
    }
    await db.query('UPDATE payout_approval_reminders SET sent_at = $3 WHERE subject_id = $1 AND approver_id = $2', [
      subjectId,
      reminder.approverId,
      clock.now(),
    ]);
    return true;
  }
}
