/**
 * The payouts' upkeep, apart from any request: at start, settling what a stopped process left
 * behind; then, on the wiring's timer, expiry, reminders to approvers, reconciliation of unknown
 * outcomes, bulk results not yet delivered and approval messages (of a request or a bulk payout) whose first
 * post failed.
 */
import type { Logger } from '../core/logger.js';
import type { PayoutBatch } from './batch/model.js';
import type { PayoutBatchService } from './batch/service.js';
import type { PayoutRequest } from './model.js';
import type { ApprovalReminders } from './reminders.js';
import type { PayoutService } from './service.js';

/** The approval messages, as the upkeep sees them. */
export interface ApprovalMessages {
  /** Posts a request's approval message again when its first post failed; in the background. */
  repostIfMissing(request: PayoutRequest): void;
  /** Resolves once every post under way has ended. */
  idle(): Promise<void>;
}

/** The bulk payouts' approval messages, as the upkeep sees them. */
export interface BatchApprovalMessages {
  /** Posts a pending bulk payout's approval message (and its rows) when its first post failed; in the background. */
  repostIfMissing(batch: PayoutBatch): void;
  /** Resolves once every post under way has ended. */
  idle(): Promise<void>;
}

export interface PayoutMaintenanceOptions {
  payouts: PayoutService;
  batches: PayoutBatchService;
  reminders: ApprovalReminders;
  approvalMessages: ApprovalMessages;
  batchMessages: BatchApprovalMessages;
  /** True when this process alone uses the database (PGlite): anything left executing or approved is from a process that died. */
  soleProcess: boolean;
  logger: Logger;
}

export class PayoutMaintenance {
  constructor(private readonly options: PayoutMaintenanceOptions) {}

  /** Settles the payouts a stopped process left executing or approved; a failure is logged, never thrown. */
  async recover(): Promise<void> {
    try {
      await this.options.payouts.recoverInterrupted(this.options.soleProcess ? { staleAfterMs: 0 } : {});
    } catch (error) {
      this.options.logger.error({ err: error }, 'payout recovery failed');
    }
  }

  /** One round of upkeep; the wiring runs it every 30 s or so. */
  async runOnce(): Promise<void> {
    const { payouts, batches, reminders, approvalMessages, batchMessages } = this.options;
    await payouts.runMaintenance();
    await batches.expireDue();
    // Beside expiry, on the same clock: approvers who have not decided hear once before it comes.
    await reminders.sendDue();
    await batches.redeliverResults();
    // An approval message whose first post failed is posted again, so approvers still see the request.
    for (const request of await payouts.listRecent({ limit: 100 })) approvalMessages.repostIfMissing(request);
    for (const batch of await batches.listRecent({ limit: 100 })) batchMessages.repostIfMissing(batch);
  }

  /** Waits for the payouts' work under way and the approval messages being posted. */
  async stop(): Promise<void> {
    await this.options.payouts.stop();
    await this.options.approvalMessages.idle();
    await this.options.batchMessages.idle();
  }
}
