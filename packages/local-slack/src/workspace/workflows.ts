/**
 * Workflow Builder's custom steps as Slack runs them for an app: a run of a step (a function
 * execution) with its typed inputs, the `function_executed` event that announces it, the function
 * token it issues (`xwfp-`: valid 15 minutes from the event, revoked when the step completes; clicks on
 * messages the step posted carry the same token, as nothing in Slack's docs renews it), and its
 * completion through `functions.completeSuccess` / `functions.completeError`, once.
 */
import { randomBytes } from 'node:crypto';
import type { Json } from './blocks.js';

/** Slack's lifetime of a function token. */
export const FUNCTION_TOKEN_TTL_MS = 15 * 60_000;

export interface WorkflowRun {
  executionId: string;
  workflowExecutionId: string;
  callbackId: string;
  inputs: Json;
  state: 'running' | 'completed' | 'failed';
  outputs?: Json;
  error?: string;
  startedAt: number;
  endedAt?: number;
  /** The event as sent, so that a redelivery sends the same one. */
  event: Json;
}

export class WorkflowRuns {
  private readonly runs = new Map<string, WorkflowRun>();
  private readonly tokens = new Map<string, { executionId: string; issuedAt: number }>();

  constructor(
    private readonly now: () => number,
    private readonly nextId: (prefix: string) => string,
    private readonly changed: (run: WorkflowRun) => void,
  ) {}

  /** A new run of the step `callbackId` with these inputs: its execution and the event announcing it. */
  start(input: { callbackId: string; inputs: Json; appId: string; teamId: string; botUserId: string }): WorkflowRun {
    const executionId = this.nextId('Fx');
    const workflowExecutionId = this.nextId('Wx');
    const eventTime = this.now() / 1000;
    const event: Json = {
      token: 'local-verification-token',
      team_id: input.teamId,
      api_app_id: input.appId,
      type: 'event_callback',
      event_id: this.nextId('Ev'),
      event_time: Math.floor(eventTime),
      authorizations: [{ enterprise_id: null, team_id: input.teamId, user_id: input.botUserId, is_bot: true, is_enterprise_install: false }],
      is_ext_shared_channel: false,
      event: {
        type: 'function_executed',
        function: {
          id: `Fn${input.callbackId
            .toUpperCase()
            .replace(/[^A-Z0-9]/g, '')
            .slice(0, 10)}`,
          callback_id: input.callbackId,
          title: input.callbackId,
          type: 'app',
          input_parameters: [],
          output_parameters: [],
          app_id: input.appId,
          date_created: Math.floor(eventTime),
          date_updated: 0,
          date_deleted: 0,
        },
        inputs: input.inputs,
        function_execution_id: executionId,
        workflow_execution_id: workflowExecutionId,
        event_ts: eventTime.toFixed(6),
        bot_access_token: this.issueToken(executionId),
      },
    };
    const run: WorkflowRun = {
      executionId,
      workflowExecutionId,
      callbackId: input.callbackId,
      inputs: input.inputs,
      state: 'running',
      startedAt: this.now(),
      event,
    };
    this.runs.set(executionId, run);
    this.changed(run);
    return run;
  }

  private issueToken(executionId: string): string {
    const token = `xwfp-${randomBytes(12).toString('hex')}`;
    this.tokens.set(token, { executionId, issuedAt: this.now() });
    return token;
  }

  /** The step's own token, issued with `function_executed` (a click on a message the step posted carries it). */
  stepToken(executionId: string): string {
    const event = this.runs.get(executionId)?.event.event as { bot_access_token?: string } | undefined;
    return event?.bot_access_token ?? '';
  }

  /** The execution a token belongs to, while it is valid: issued less than 15 minutes ago, and its step still running. */
  executionOf(token: string | undefined): string | undefined {
    const found = token ? this.tokens.get(token) : undefined;
    if (!found || this.now() - found.issuedAt >= FUNCTION_TOKEN_TTL_MS) return undefined;
    return this.runs.get(found.executionId)?.state === 'running' ? found.executionId : undefined;
  }

  isRunning(executionId: string | undefined): boolean {
    return executionId !== undefined && this.runs.get(executionId)?.state === 'running';
  }

  /** Slack's `functions.completeSuccess` / `functions.completeError`: once, by a token of that execution. */
  complete(executionId: string, result: { outputs: Json } | { error: string }): 'ok' | 'function_execution_not_found' | 'execution_not_in_running_state' {
    const run = this.runs.get(executionId);
    if (!run) return 'function_execution_not_found';
    if (run.state !== 'running') return 'execution_not_in_running_state';
    if ('outputs' in result) {
      run.state = 'completed';
      run.outputs = result.outputs;
    } else {
      run.state = 'failed';
      run.error = result.error;
    }
    run.endedAt = this.now();
    this.changed(run);
    return 'ok';
  }

  find(executionId: string): WorkflowRun | undefined {
    return this.runs.get(executionId);
  }

  list(): WorkflowRun[] {
    return [...this.runs.values()];
  }
}
