/**
 * The stored requests as a notifier reads them: the latest version of one, and where its approval
 * message is. Given to the notifier at construction, so that it never calls back into the service.
 */
import type { Clock } from '../core/clock.js';
import type { Db } from '../store/db.js';
import type { PayoutRequest } from './model.js';
import { findRequest, setApprovalMessage } from './repository.js';
import { withSchedule } from './schedule/attach.js';
import { requestSignals, type ApprovalSignals, type SignalRules } from './signals.js';

export interface PayoutRequestReader {
  get(id: string): Promise<PayoutRequest | undefined>;
  /** Only the first message counts: undefined when the request already had one (another replica posted it first). */
  setApprovalMessage(id: string, channel: string, ts: string): Promise<PayoutRequest | undefined>;
  /** What its approvers should notice (`signals.ts`): one query per message. */
  signals(request: PayoutRequest): Promise<ApprovalSignals>;
}

export function payoutRequestReader(db: Db, clock: Clock, rules: SignalRules): PayoutRequestReader {
  return {
    signals: (request) => requestSignals(db, request, rules),
    get: async (id) => withSchedule(db, await findRequest(db, id.trim().toUpperCase())),
    setApprovalMessage: (id, channel, ts) => setApprovalMessage(db, id, channel, ts, clock.now()),
  };
}
