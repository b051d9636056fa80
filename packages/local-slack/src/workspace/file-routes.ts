/**
 * The workspace's file URLs: a file's private URL (`url_private`, `url_private_download`), read only with
 * the bot token, and the upload URL `files.getUploadURLExternal` gives.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, uploadedBytes } from './api-endpoint.js';
import type { WorkspaceState } from './state.js';

/**
 * As on Slack, a private URL answers only with the bot token in an Authorization header; without it
 * Slack answers with its sign-in page, here a 302 to it. True when the file's bytes were served.
 */
export function servePrivateFile(
  state: WorkspaceState,
  access: { isBotToken: (token: string | undefined) => boolean; signInUrl: string },
  fileId: string,
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const file = state.findFile(fileId);
  if (!access.isBotToken(bearer)) {
    response.writeHead(302, { location: access.signInUrl }).end();
    return false;
  }
  if (!file?.bytes) {
    sendJson(response, 404, { ok: false, error: 'file_not_found' });
    return false;
  }
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(file.bytes.length) });
  response.end(file.bytes);
  return true;
}

/** The bytes of a file, posted to the URL `files.getUploadURLExternal` gave; Slack answers `OK - <length>`. */
export async function receiveUpload(state: WorkspaceState, token: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const file = state.findUpload(token);
  if (!file || file.bytes) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  file.bytes = await uploadedBytes(request);
  response.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${file.bytes.length}`);
}

/** The file routes of a request path: `downloaded` when a private file's bytes went out, true when answered, false when not a file route. */
export async function serveFileRoute(
  state: WorkspaceState,
  access: { isBotToken: (token: string | undefined) => boolean; signInUrl: string },
  path: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<'downloaded' | boolean> {
  const privateFile = /^\/files-pri\/[A-Z0-9]+-(F\w+)\/(?:download\/)?[^/]+$/.exec(path)?.[1];
  if (request.method === 'GET' && privateFile) return servePrivateFile(state, access, privateFile, request, response) ? 'downloaded' : true;
  const uploadToken = /^\/upload\/([\da-f]+)$/.exec(path)?.[1];
  if (request.method !== 'POST' || !uploadToken) return false;
  await receiveUpload(state, uploadToken, request, response);
  return true;
}
