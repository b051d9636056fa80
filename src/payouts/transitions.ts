/**
 * Commits a state change and its audit event together, then tells the notifier. The one place
 * where a request moves, so that "conditional update + event + notify" is never half done.
 */
import type { Logger } from '../logger.js';
import type { Db, Queryable } from '../store/db.js';
import type { PayoutEventName, PayoutRequest } from './model.js';
import { appendEvent, findRequest, updateRequest, type PayoutChanges, type PayoutExpectation } from './repository.js';
import { rememberRecipient } from './saved-recipients.js';

/** Told about every committed change, e.g. to update the approval message and DM the requester. */
export interface PayoutNotifier {
  /** Its failure is logged and never undoes the change. */
  changed(request: PayoutRequest, event: PayoutEventName, actor?: string): Promise<void>;
}

export interface RecordedEvent {
  event: PayoutEventName;
  /** The Slack user who caused it; omitted for the app's own moves. */
  userId?: string | undefined;
  details?: Record<string, unknown>;
}

export class TransitionRecorder {
  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    /** Told in order, each after the one before; read at each change, so one added later hears what follows. */
    private readonly notifiers: readonly PayoutNotifier[],
  ) {}

  /**
   * One conditional UPDATE plus its event in one transaction. Returns the moved request, or
   * undefined when `expected` no longer held: someone else won, and nothing was written.
   */
  async move(id: string, expected: PayoutExpectation, changes: PayoutChanges, recorded: RecordedEvent, now: Date): Promise<PayoutRequest | undefined> {
    const moved = await this.db.transaction(async (tx) => {
      const request = await updateRequest(tx, id, expected, changes, now);
      if (request) await appendEvent(tx, { requestId: id, at: now, ...recorded });
      // Sent or reconciled alike: a completed payout went to this recipient.
      if (request?.state === 'completed') await rememberRecipient(tx, request, now);
      return request;
    });
    if (moved) await this.announce(moved, recorded);
    return moved;
  }

  /**
   * Changes that need more than one conditional UPDATE (the gate's move to sending or its hold): `work`
   * makes them inside one transaction and names their events, which are recorded with them and
   * announced after the commit. Undefined when `work` found the request moved on.
   */
  async decide(work: (tx: Queryable) => Promise<{ request: PayoutRequest; events: RecordedEvent[] } | undefined>, now: Date): Promise<{ request: PayoutRequest; events: RecordedEvent[] } | undefined> {
    const decided = await this.db.transaction(async (tx) => {
      const outcome = await work(tx);
      if (outcome) for (const recorded of outcome.events) await appendEvent(tx, { requestId: outcome.request.id, at: now, ...recorded });
      return outcome;
    });
    if (decided) for (const recorded of decided.events) await this.announce(decided.request, recorded);
    return decided;
  }

  /** Records an event for changes already made inside `tx` (the caller commits, then announces). */
  async record(tx: Queryable, request: PayoutRequest, recorded: RecordedEvent, now: Date): Promise<void> {
    await appendEvent(tx, { requestId: request.id, at: now, ...recorded });
  }

  async announce(request: PayoutRequest, recorded: RecordedEvent): Promise<void> {
    this.logger.info({ payoutId: request.id, state: request.state, event: recorded.event, actor: recorded.userId }, 'payout changed');
    try {
      for (const notifier of this.notifiers) await notifier.changed(request, recorded.event, recorded.userId);
    } catch (error) {
      this.logger.error({ err: error, payoutId: request.id, event: recorded.event }, 'payout notifier failed; the change itself is kept');
    }
  }

  async current(id: string): Promise<PayoutRequest | undefined> {
    return findRequest(this.db, id);
  }
}
