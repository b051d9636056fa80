/**
 * SQL for schedules and their occurrences. Holds no rules: every change of an occurrence is a
 * conditional UPDATE on its state (and version), so two replicas, a double click or a redelivery
 * change it once.
 */
import type { Queryable } from '../../store/db.js';
import { formatWallTime, parseWallTime, type WallTime } from '../../core/calendar.js';
import type { ScheduleRepeat } from './dates.js';
import type {
  Occurrence,
  OccurrenceHold,
  OccurrenceState,
  PayoutSchedule,
  SavedRecipientSnapshot,
  ScheduledFrom,
  ScheduleEvent,
  ScheduleEventName,
} from './model.js';

type Timestamp = Date | string;

interface OccurrenceRow {
  request_id: string;
  number: number;
  due_at: Timestamp;
  state: string;
  hold_reason: string | null;
  payout_id: string | null;
  version: number;
}

interface ScheduleRow {
  request_id: string;
  time_zone: string;
  first_day: string;
  time_of_day: string;
  repeat: string;
  ends_on: string | null;
  saved_recipient: SavedRecipientSnapshot | string | null;
  cancelled_by: string | null;
  cancelled_at: Timestamp | null;
}

const toDate = (value: Timestamp): Date => (value instanceof Date ? value : new Date(value));

function toOccurrence(row: OccurrenceRow): Occurrence {
  return {
    requestId: row.request_id,
    number: Number(row.number),
    dueAt: toDate(row.due_at),
    state: row.state as OccurrenceState,
    hold: (row.hold_reason ?? undefined) as OccurrenceHold | undefined,
    payoutId: row.payout_id ?? undefined,
    version: Number(row.version),
  };
}

export interface NewSchedule {
  requestId: string;
  timeZone: string;
  firstDay: string;
  time: WallTime;
  repeat: ScheduleRepeat;
  endsOn: string | undefined;
  savedRecipient: SavedRecipientSnapshot | undefined;
  times: readonly Date[];
}

export async function insertSchedule(tx: Queryable, schedule: NewSchedule, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO payout_schedules (request_id, time_zone, first_day, time_of_day, repeat, ends_on, saved_recipient) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      schedule.requestId,
      schedule.timeZone,
      schedule.firstDay,
      formatWallTime(schedule.time),
      schedule.repeat,
      schedule.endsOn ?? null,
      schedule.savedRecipient ? JSON.stringify(schedule.savedRecipient) : null,
    ],
  );
  // A one-off is sent as the request itself (its typed reference): its occurrence names it from the start.
  await tx.query(
    `INSERT INTO payout_occurrences (request_id, number, due_at, updated_at, payout_id)
     SELECT $1, n, t, $3, CASE WHEN $4::boolean THEN $1 END FROM unnest($2::timestamptz[]) WITH ORDINALITY AS u(t, n)`,
    [schedule.requestId, schedule.times.map((time) => time.toISOString()), now, schedule.times.length === 1],
  );
}

export async function findSchedule(q: Queryable, requestId: string): Promise<PayoutSchedule | undefined> {
  const {
    rows: [row],
  } = await q.query<ScheduleRow>('SELECT * FROM payout_schedules WHERE request_id = $1', [requestId]);
  if (!row) return undefined;
  const { rows } = await q.query<OccurrenceRow>('SELECT * FROM payout_occurrences WHERE request_id = $1 ORDER BY number', [requestId]);
  return {
    requestId: row.request_id,
    timeZone: row.time_zone,
    firstDay: row.first_day,
    time: parseWallTime(row.time_of_day) ?? { hour: 0, minute: 0 },
    repeat: row.repeat as ScheduleRepeat,
    endsOn: row.ends_on ?? undefined,
    cancelledBy: row.cancelled_by ?? undefined,
    cancelledAt: row.cancelled_at ? toDate(row.cancelled_at) : undefined,
    occurrences: rows.map(toOccurrence),
  };
}

export async function savedRecipientAtApproval(q: Queryable, requestId: string): Promise<SavedRecipientSnapshot | undefined> {
  const {
    rows: [row],
  } = await q.query<{ saved_recipient: SavedRecipientSnapshot | string | null }>('SELECT saved_recipient FROM payout_schedules WHERE request_id = $1', [
    requestId,
  ]);
  const value = row?.saved_recipient;
  if (!value) return undefined;
  return typeof value === 'string' ? (JSON.parse(value) as SavedRecipientSnapshot) : value;
}

/**
 * Whether a request waits for its time: scheduled (approved ahead), and not a one-off already
 * released, which is then sent as itself once approved.
 */
export async function waitsForItsTime(q: Queryable, requestId: string): Promise<boolean> {
  const { rows } = await q.query(
    `SELECT 1 FROM payout_schedules s WHERE s.request_id = $1
       AND NOT EXISTS (SELECT 1 FROM payout_occurrences o WHERE o.request_id = s.request_id AND o.payout_id = s.request_id AND o.state = 'released')`,
    [requestId],
  );
  return rows.length > 0;
}

/** The schedule and occurrence a payout request was released from. */
export async function scheduledFrom(q: Queryable, payoutId: string): Promise<ScheduledFrom | undefined> {
  const {
    rows: [row],
  } = await q.query<{ request_id: string; number: number; total: number | string }>(
    `SELECT o.request_id, o.number, (SELECT count(*) FROM payout_occurrences a WHERE a.request_id = o.request_id) AS total
     FROM payout_occurrences o WHERE o.payout_id = $1`,
    [payoutId],
  );
  return row ? { requestId: row.request_id, number: Number(row.number), of: Number(row.total) } : undefined;
}

export async function findOccurrence(q: Queryable, requestId: string, number: number, lock = false): Promise<Occurrence | undefined> {
  const {
    rows: [row],
  } = await q.query<OccurrenceRow>(`SELECT * FROM payout_occurrences WHERE request_id = $1 AND number = $2${lock ? ' FOR UPDATE' : ''}`, [requestId, number]);
  return row ? toOccurrence(row) : undefined;
}

/**
 * Occurrences of active schedules due at `now` (the database's clock) still waiting, oldest first, locked
 * for this transaction; rows another replica holds are passed over. Those of a series still waiting
 * for approval are taken only once past `missedBefore` (to be marked missed): until then a release
 * would leave them as they are, and they would take the places of approved ones due after them.
 */
/**
 * True when an occurrence is due at `now` (the database's clock by default), or due within
 * `noticeMinutes` (its notice): the releaser's look, one read, before it takes its lease.
 */
export async function anyOccurrenceDueWithin(q: Queryable, noticeMinutes: number, now?: Date): Promise<boolean> {
  const { rows } = await q.query<{ due: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM payout_occurrences
                     WHERE state = 'scheduled' AND due_at <= COALESCE($2::timestamptz, clock_timestamp()) + $1 * interval '1 minute') AS due`,
    [Math.max(0, noticeMinutes), now ?? null],
  );
  return rows[0]?.due === true;
}

export async function takeDue(tx: Queryable, now: Date, limit: number, missedBefore: Date): Promise<Occurrence[]> {
  const { rows } = await tx.query<OccurrenceRow>(
    `SELECT o.* FROM payout_occurrences o JOIN payout_schedules s ON s.request_id = o.request_id JOIN payout_requests p ON p.id = o.request_id
     WHERE o.state = 'scheduled' AND o.due_at <= $1 AND s.cancelled_at IS NULL AND (p.state <> 'pending' OR o.due_at < $3)
     ORDER BY o.due_at, o.request_id, o.number LIMIT $2 FOR UPDATE OF o SKIP LOCKED`,
    [now, limit, missedBefore],
  );
  return rows.map(toOccurrence);
}

/** Moves one occurrence when it is still in one of `from` (and at `version`, when given); the moved row, or undefined. */
export async function moveOccurrence(
  q: Queryable,
  key: { requestId: string; number: number; from: readonly OccurrenceState[]; version?: number },
  to: { state: OccurrenceState; hold?: OccurrenceHold | null; payoutId?: string },
  now: Date,
): Promise<Occurrence | undefined> {
  const {
    rows: [row],
  } = await q.query<OccurrenceRow>(
    `UPDATE payout_occurrences SET state = $4, hold_reason = $5, payout_id = COALESCE($6, payout_id), updated_at = $7, version = version + 1
     WHERE request_id = $1 AND number = $2 AND state = ANY($3::text[]) AND ($8::integer IS NULL OR version = $8) RETURNING *`,
    [key.requestId, key.number, [...key.from], to.state, to.hold ?? null, to.payoutId ?? null, now, key.version ?? null],
  );
  return row ? toOccurrence(row) : undefined;
}

/** Cancels the schedule and every occurrence still waiting, held or missed: those occurrences; undefined when it was already cancelled. */
export async function cancelSchedule(tx: Queryable, requestId: string, userId: string, now: Date): Promise<Occurrence[] | undefined> {
  const { rowCount } = await tx.query('UPDATE payout_schedules SET cancelled_by = $2, cancelled_at = $3 WHERE request_id = $1 AND cancelled_at IS NULL', [
    requestId,
    userId,
    now,
  ]);
  if (rowCount === 0) return undefined;
  const { rows } = await tx.query<OccurrenceRow>(
    `UPDATE payout_occurrences SET state = 'cancelled', updated_at = $2, version = version + 1
     WHERE request_id = $1 AND state IN ('scheduled', 'held', 'missed') RETURNING *`,
    [requestId, now],
  );
  return rows.map(toOccurrence);
}

/**
 * Waiting occurrences of approved, active series due before `before` whose requester has not been
 * told yet, at most `limit`, soonest first; marks them told (one replica wins each). The series'
 * state is in the choice itself, so series nobody approved never take the places of approved ones.
 */
export async function takeNoticesDue(tx: Queryable, now: Date, before: Date, limit: number): Promise<Occurrence[]> {
  const { rows } = await tx.query<OccurrenceRow>(
    `UPDATE payout_occurrences o SET noticed_at = $1
     WHERE o.state = 'scheduled' AND o.noticed_at IS NULL
       AND (o.request_id, o.number) IN (
         SELECT d.request_id, d.number FROM payout_occurrences d
           JOIN payout_schedules s ON s.request_id = d.request_id JOIN payout_requests p ON p.id = d.request_id
          WHERE p.state = 'approved' AND s.cancelled_at IS NULL
            AND d.state = 'scheduled' AND d.noticed_at IS NULL AND d.due_at > $1 AND d.due_at <= $2
          ORDER BY d.due_at, d.request_id, d.number LIMIT $3)
     RETURNING o.*`,
    [now, before, limit],
  );
  return rows.map(toOccurrence);
}

/** Waiting or held occurrences of active schedules, soonest first: for `/fleet scheduled`, the Home and the digest. */
export async function listUpcoming(q: Queryable, options: { from?: Date; to?: Date; requestedBy?: string; limit: number }): Promise<Occurrence[]> {
  const { rows } = await q.query<OccurrenceRow>(
    `SELECT o.* FROM payout_occurrences o JOIN payout_schedules s ON s.request_id = o.request_id JOIN payout_requests p ON p.id = o.request_id
     WHERE o.state IN ('scheduled', 'held', 'missed') AND s.cancelled_at IS NULL AND p.state IN ('pending', 'approved')
       AND ($1::timestamptz IS NULL OR o.due_at >= $1) AND ($2::timestamptz IS NULL OR o.due_at < $2) AND ($3::text IS NULL OR p.requested_by = $3)
     ORDER BY o.due_at, o.request_id, o.number LIMIT $4`,
    [options.from ?? null, options.to ?? null, options.requestedBy ?? null, options.limit],
  );
  return rows.map(toOccurrence);
}

export async function appendScheduleEvent(q: Queryable, event: Omit<ScheduleEvent, 'details'> & { details?: Record<string, unknown> }): Promise<void> {
  await q.query('INSERT INTO payout_schedule_events (request_id, number, event, user_id, at, details) VALUES ($1, $2, $3, $4, $5, $6)', [
    event.requestId,
    event.number ?? null,
    event.event,
    event.userId ?? null,
    event.at,
    JSON.stringify(event.details ?? {}),
  ]);
}

export async function listScheduleEvents(q: Queryable, requestId: string): Promise<ScheduleEvent[]> {
  const { rows } = await q.query<{ request_id: string; number: number | null; event: string; user_id: string | null; at: Timestamp; details: unknown }>(
    'SELECT * FROM payout_schedule_events WHERE request_id = $1 ORDER BY id',
    [requestId],
  );
  return rows.map((row) => ({
    requestId: row.request_id,
    number: row.number ?? undefined,
    event: row.event as ScheduleEventName,
    userId: row.user_id ?? undefined,
    at: toDate(row.at),
    details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<string, unknown>,
  }));
}

/**
 * When a stored request is compared with the payouts before it (possible duplicates): its request
 * time, or for a one-off released as itself, its due time, as the request of its own it is sent as.
 */
export async function comparedAt(q: Queryable, request: { id: string; requestedAt: Date }): Promise<Date> {
  const { rows } = await q.query<{ due_at: Date | string }>(
    "SELECT due_at FROM payout_occurrences WHERE payout_id = $1 AND request_id = $1 AND state = 'released'",
    [request.id],
  );
  return rows[0] ? new Date(rows[0].due_at) : request.requestedAt;
}

/**
 * The occurrence a payout is sent for: when it was due, and whether the payout is the scheduled request
 * itself (a one-off, which counts on its due day); undefined for a payout not released from a schedule.
 */
export async function occurrenceOf(q: Queryable, payoutId: string): Promise<{ dueAt: Date; itself: boolean } | undefined> {
  const { rows } = await q.query<{ due_at: Date | string; request_id: string }>('SELECT due_at, request_id FROM payout_occurrences WHERE payout_id = $1', [
    payoutId,
  ]);
  return rows[0] ? { dueAt: new Date(rows[0].due_at), itself: rows[0].request_id === payoutId } : undefined;
}
