/**
 * What a Web API method receives and how it refuses, shared by the methods and the endpoint that
 * dispatches to them.
 */
import type { Json } from './blocks.js';

/** Who called: the bot token, or a workflow step's function token (and then its execution). */
export interface ApiAuth {
  functionExecutionId?: string;
}

/** One Web API method: its arguments and caller in, its answer out. */
export type ApiMethod = (args: Json, auth: ApiAuth) => Json;

/** An `ok:false` answer; thrown by a method and turned into `{ok:false, error}` by the endpoint. */
export class SlackApiError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}
