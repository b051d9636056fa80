/**
 * The SQL of the payout step: one row per function execution. Every move is one conditional
 * statement, so that two replicas (or a double click) cannot both take it.
 */
import type { PayoutDraft } from '../payouts/index.js';
import type { Queryable } from '../store/db.js';
import type { PayoutStep, StepOutcome, StepState } from './model.js';

interface StepRow {
  execution_id: string;
  workflow_execution_id: string | null;
  requester: string;
  state: StepState;
  draft: PayoutDraft | null;
  payout_id: string | null;
  sealed_token: string | null;
  token_valid_until: Date | string;
  claimed_at: Date | string | null;
  outcome: StepOutcome | null;
  created_at: Date | string;
  completed_at: Date | string | null;
}

const date = (value: Date | string) => new Date(value);

function toStep(row: StepRow): PayoutStep {
  return {
    executionId: row.execution_id,
    workflowExecutionId: row.workflow_execution_id ?? undefined,
    requester: row.requester,
    state: row.state,
    draft: row.draft ?? undefined,
    payoutId: row.payout_id ?? undefined,
    sealedToken: row.sealed_token ?? undefined,
    tokenValidUntil: date(row.token_valid_until),
    claimedAt: row.claimed_at === null ? undefined : date(row.claimed_at),
    outcome: row.outcome ?? undefined,
    createdAt: date(row.created_at),
    completedAt: row.completed_at === null ? undefined : date(row.completed_at),
  };
}

const one = (rows: StepRow[]) => (rows[0] ? toStep(rows[0]) : undefined);

/** Stores a new step; undefined when the execution already has one (a redelivered event). */
export async function insertStep(
  db: Queryable,
  step: { executionId: string; workflowExecutionId: string | undefined; requester: string; sealedToken: string; tokenValidUntil: Date; now: Date },
): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>(
    `INSERT INTO workflow_payout_steps (execution_id, workflow_execution_id, requester, state, sealed_token, token_valid_until, created_at)
     VALUES ($1, $2, $3, 'received', $4, $5, $6) ON CONFLICT (tenant_id, execution_id) DO NOTHING RETURNING *`,
    [step.executionId, step.workflowExecutionId ?? null, step.requester, step.sealedToken, step.tokenValidUntil, step.now],
  );
  return one(rows);
}

export async function findStep(db: Queryable, executionId: string): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>('SELECT * FROM workflow_payout_steps WHERE execution_id = $1', [executionId]);
  return one(rows);
}

export async function findStepByPayout(db: Queryable, payoutId: string): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>('SELECT * FROM workflow_payout_steps WHERE payout_id = $1', [payoutId]);
  return one(rows);
}

/** Steps not yet completed or lapsed, the soonest token to expire first. */
export async function openSteps(db: Queryable): Promise<PayoutStep[]> {
  const { rows } = await db.query<StepRow>(
    "SELECT * FROM workflow_payout_steps WHERE state NOT IN ('completed', 'lapsed') ORDER BY token_valid_until LIMIT 500",
  );
  return rows.map(toStep);
}

/** received → asking, with the draft to confirm. */
export async function askRequester(db: Queryable, executionId: string, draft: PayoutDraft): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>(
    "UPDATE workflow_payout_steps SET state = 'asking', draft = $2 WHERE execution_id = $1 AND state = 'received' RETURNING *",
    [executionId, JSON.stringify(draft)],
  );
  return one(rows);
}

/**
 * Claims the step's submission: asking → submitting, or a submission whose process stopped
 * (claimed before `staleBefore`) taken over.
 */
export async function claimSubmission(db: Queryable, executionId: string, now: Date, staleBefore: Date): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>(
    `UPDATE workflow_payout_steps SET state = 'submitting', claimed_at = $2
      WHERE execution_id = $1 AND (state = 'asking' OR (state = 'submitting' AND claimed_at < $3)) RETURNING *`,
    [executionId, now, staleBefore],
  );
  return one(rows);
}

/** submitting → waiting, once the payout request is stored. */
export async function awaitPayout(db: Queryable, executionId: string, payoutId: string): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>(
    "UPDATE workflow_payout_steps SET state = 'waiting', payout_id = $2, claimed_at = NULL WHERE execution_id = $1 AND state = 'submitting' RETURNING *",
    [executionId, payoutId],
  );
  return one(rows);
}

/**
 * Claims the step's completion with `outcome`, from one of `from`; or takes over a completion
 * whose process stopped or asked to try again (claimed before `staleBefore`, or released), keeping
 * the outcome it had. One statement: one process completes.
 */
export async function claimCompletion(
  db: Queryable,
  executionId: string,
  outcome: StepOutcome | undefined,
  from: readonly StepState[],
  now: Date,
  staleBefore: Date,
): Promise<PayoutStep | undefined> {
  const { rows } = await db.query<StepRow>(
    `UPDATE workflow_payout_steps
        SET outcome = CASE WHEN state = 'completing' THEN outcome ELSE $2::jsonb END, state = 'completing', claimed_at = $4
      WHERE execution_id = $1
        AND ((state = ANY($3::text[]) AND state <> 'completing' AND $2::jsonb IS NOT NULL)
          OR (state = 'completing' AND (claimed_at IS NULL OR claimed_at < $5)))
      RETURNING *`,
    [executionId, outcome === undefined ? null : JSON.stringify(outcome), [...from], now, staleBefore],
  );
  return one(rows);
}

/** completing → completed (Slack took it) or lapsed (no valid token remained); the token is deleted. */
export async function finishStep(db: Queryable, executionId: string, state: 'completed' | 'lapsed', now: Date): Promise<void> {
  await db.query('UPDATE workflow_payout_steps SET state = $2, sealed_token = NULL, claimed_at = NULL, completed_at = $3 WHERE execution_id = $1', [
    executionId,
    state,
    now,
  ]);
}

/** A step whose token expired before it could be completed, in whatever open state it was: lapsed. */
export async function lapseStep(db: Queryable, executionId: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE workflow_payout_steps SET state = 'lapsed', sealed_token = NULL, claimed_at = NULL, completed_at = $2
      WHERE execution_id = $1 AND state NOT IN ('completed', 'lapsed') AND token_valid_until <= $2`,
    [executionId, now],
  );
  return rowCount > 0;
}

/** A completion that failed for a passing reason: released, so that the next sweep tries it again. */
export async function releaseCompletion(db: Queryable, executionId: string): Promise<void> {
  await db.query("UPDATE workflow_payout_steps SET claimed_at = NULL WHERE execution_id = $1 AND state = 'completing'", [executionId]);
}
