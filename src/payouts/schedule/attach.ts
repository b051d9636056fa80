/** Attaches to a stored request what scheduling adds: its schedule, or the occurrence it was released from. */
import type { Queryable } from '../../store/db.js';
import type { PayoutRequest } from '../model.js';
import { findSchedule, scheduledFrom } from './store.js';

export async function withSchedule(q: Queryable, request: PayoutRequest | undefined): Promise<PayoutRequest | undefined> {
  if (!request) return undefined;
  const schedule = await findSchedule(q, request.id);
  if (schedule) return { ...request, schedule };
  const from = await scheduledFrom(q, request.id);
  return from ? { ...request, scheduledFrom: from } : request;
}
