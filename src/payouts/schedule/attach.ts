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

/**
 * The same for a list: one query finds which of `requests` are scheduled, and only those are read in
 * full, so that a list words an approved scheduled request as scheduled, not as being sent.
 */
export async function withSchedules(q: Queryable, requests: readonly PayoutRequest[]): Promise<PayoutRequest[]> {
  if (requests.length === 0) return [];
  const { rows } = await q.query<{ request_id: string }>('SELECT request_id FROM payout_schedules WHERE request_id = ANY($1::text[])', [
    requests.map((request) => request.id),
  ]);
  const scheduled = new Set(rows.map((row) => row.request_id));
  return Promise.all(
    requests.map(async (request) => {
      if (!scheduled.has(request.id)) return request;
      const schedule = await findSchedule(q, request.id);
      return schedule ? { ...request, schedule } : request;
    }),
  );
}
