/** The Workflow Builder step "Request a payout": one row per function execution, its token while the step is open, and how it ended. */
import type { Migration } from './migration.js';

export const workflowPayoutSteps: Migration = {
  id: 25,
  name: 'workflow_payout_steps',
  sql: `
    CREATE TABLE workflow_payout_steps (
      -- Slack's function_execution_id: a redelivered function_executed finds its row and makes nothing new.
      execution_id text PRIMARY KEY,
      workflow_execution_id text,
      -- The Slack user the workflow named; empty when the input was missing.
      requester text NOT NULL,
      -- received → asking (the requester's DM) → submitting → waiting (the payout request) → completing → completed;
      -- lapsed when no valid token remained to complete it with.
      state text NOT NULL,
      -- The validated draft the requester is asked to confirm.
      draft jsonb,
      payout_id text UNIQUE,
      -- The freshest function token, sealed by the Slack layer; NULL once the step is completed or lapsed.
      sealed_token text,
      token_valid_until timestamptz NOT NULL,
      -- When a process claimed the step's submission or completion; NULL for a completion to try again at once.
      claimed_at timestamptz,
      -- What the step is (or was) completed with.
      outcome jsonb,
      created_at timestamptz NOT NULL,
      completed_at timestamptz
    );
    CREATE INDEX workflow_payout_steps_open ON workflow_payout_steps (token_valid_until) WHERE state NOT IN ('completed', 'lapsed');
  `,
};
