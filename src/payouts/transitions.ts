/**
 * Commits a state change and its audit event together, then tells the notifiers. The one place
 * where a request moves, so that "conditional update + event + notify" is never half done: no other
 * module writes a request's row or its events (`test/architecture.test.ts` checks it). A change made
 * inside a caller's own transaction (a release, a bulk row, the gate) goes through the functions
 * at the end of this file, and the caller announces it after the commit.
 */
import type { Logger } from '../core/logger.js';
import type { Db, Queryable } from '../store/db.js';
import type { PayoutEventName, PayoutRequest, PayoutState } from './model.js';
import { appendEvent, findRequest, updateRequest, updateWhere, type PayoutChanges, type PayoutExpectation } from './repository.js';
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
  async decide(
    work: (tx: Queryable) => Promise<{ request: PayoutRequest; events: RecordedEvent[] } | undefined>,
    now: Date,
  ): Promise<{ request: PayoutRequest; events: RecordedEvent[] } | undefined> {
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

/**
 * Inside the caller's transaction: locks the request's row while `expected` holds, changing nothing
 * (approvals of one request queue there, and one that moved stops them); undefined when it no longer holds.
 */
export async function lockRequest(tx: Queryable, id: string, expected: PayoutExpectation, now: Date): Promise<PayoutRequest | undefined> {
  return updateRequest(tx, id, expected, {}, now);
}

/**
 * Inside the caller's transaction: one conditional change, with its event when `recorded` is given
 * (a change with none keeps the app's own bookkeeping, e.g. when it last looked). The caller
 * announces the change after the commit (`TransitionRecorder.announce`, or `decide` which does).
 */
export async function changeRequest(
  tx: Queryable,
  id: string,
  expected: PayoutExpectation,
  changes: PayoutChanges,
  now: Date,
  recorded?: RecordedEvent,
): Promise<PayoutRequest | undefined> {
  const changed = await updateRequest(tx, id, expected, changes, now);
  if (changed && recorded) await appendEvent(tx, { requestId: id, at: now, ...recorded });
  if (changed?.state === 'completed') await rememberRecipient(tx, changed, now);
  return changed;
}

/** Inside the caller's transaction: the event of a change made there (a request made, a row taken), announced after the commit. */
export async function recordEvent(tx: Queryable, requestId: string, recorded: RecordedEvent, now: Date): Promise<void> {
  await appendEvent(tx, { requestId, at: now, ...recorded });
}

/** Inside the caller's transaction: a sweep's change of every request in `where.state` idle since `atOrBefore` (at most `limit`). */
export async function changeRequestsWhere(
  tx: Queryable,
  where: { state: PayoutState; column: 'expires_at' | 'last_sent_at'; atOrBefore: Date },
  changes: PayoutChanges & { state: PayoutState },
  now: Date,
  limit: number,
): Promise<PayoutRequest[]> {
  return updateWhere(tx, where, changes, now, limit);
}
