/**
 * What Slack does with a POST to a response_url: post a new message (ephemeral unless
 * `response_type: "in_channel"`), or replace or delete the message the URL belongs to.
 * A URL works 5 times within 30 minutes. A slash command's URL belongs to no message: there
 * `replace_original` and `delete_original` change nothing already shown, and each answer is a new
 * message, as Slack's maintainers describe (slackapi/bolt-js#2287, slackapi/bolt-python#1268).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson } from './api-endpoint.js';
import { checkMessage } from './block-kit-limits.js';
import { isObject } from './blocks.js';
import type { ResponseUrlRecord, WorkspaceState } from './state.js';

export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

export interface ResponseUrlAnswer {
  status: number;
  body: { ok: boolean; error?: string };
}

const refuse = (status: number, error: string): ResponseUrlAnswer => ({ status, body: { ok: false, error } });

const flag = (value: unknown): boolean => value === true || value === 'true';

/** The app's message for a response_url, or a slash command's acknowledgement body (which Slack treats alike). */
export function postResponse(
  state: WorkspaceState,
  record: ResponseUrlRecord,
  body: Record<string, unknown>,
  report: (source: string, violations: string[]) => void,
  source: string,
): ResponseUrlAnswer {
  const text = typeof body.text === 'string' ? body.text : '';
  const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
  const target = record.targetTs ? state.findMessage(record.channelId, record.targetTs) : undefined;
  const liveTarget = target && !target.deleted ? target : undefined;

  if (flag(body.delete_original)) {
    // Nothing to delete for a command's URL, as for a message gone.
    if (!liveTarget || record.kind === 'command') return refuse(404, 'message_not_found');
    state.deleteMessage(liveTarget);
    return { status: 200, body: { ok: true } };
  }
  if (!text && !blocks) return refuse(400, 'no_text');
  report(source, checkMessage(blocks ?? [], text));

  if (flag(body.replace_original) && liveTarget && record.kind === 'message') {
    state.updateMessage(liveTarget, { text, blocks });
    return { status: 200, body: { ok: true } };
  }
  const responseType = body.response_type === 'in_channel' ? 'in_channel' : 'ephemeral';
  const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : undefined;
  state.postMessage({
    channel: record.channelId,
    userId: state.identity.botUserId,
    botId: state.identity.botId,
    text,
    blocks,
    responseType,
    ...(responseType === 'ephemeral' ? { ephemeralTo: record.userId } : {}),
    ...(threadTs ? { threadTs } : {}),
  });
  return { status: 200, body: { ok: true } };
}

/** Handles `POST /response/<id>` with the app's JSON body. */
export function handleResponseUrl(state: WorkspaceState, id: string, body: unknown, report: (source: string, violations: string[]) => void): ResponseUrlAnswer {
  const record = state.responseUrl(id);
  if (!record) return refuse(404, 'no_such_url');
  if (state.now() - record.createdAt > RESPONSE_URL_TTL_MS) return refuse(404, 'expired_url');
  if (record.uses >= RESPONSE_URL_MAX_USES) return refuse(404, 'used_url');
  if (!isObject(body)) return refuse(400, 'invalid_payload');
  record.uses += 1;
  return postResponse(state, record, body, report, 'response_url');
}

/** A POST to a response URL, answered over HTTP. */
export async function serveResponseUrl(
  state: WorkspaceState,
  id: string,
  request: IncomingMessage,
  response: ServerResponse,
  report: (source: string, violations: string[]) => void,
): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch {
    return sendJson(response, 400, { ok: false, error: 'invalid_payload' });
  }
  const answer = handleResponseUrl(state, id, body, report);
  sendJson(response, answer.status, answer.body);
}
