/**
 * Uploads a file from disk to a channel or DM through Slack's external upload: ask for an upload URL
 * with the file's name and length, stream the bytes to it, then complete the upload to share it. The
 * body is read from disk as it is sent, so a large export never sits in memory.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { LogLevel, WebClient, type Logger as SlackLogger } from '@slack/web-api';
import { request } from 'undici';

export interface FileUpload {
  path: string;
  /** The file's name in Slack, e.g. `fleet-transactions-2026-10.csv`. */
  filename: string;
  title: string;
  /** Where to share it: a channel or DM id. */
  channelId: string;
  /** The message text shown with the file. */
  initialComment?: string;
  /** Shares it as a reply in this thread of `channelId`. */
  threadTs?: string;
}

export type UploadStep = 'upload_url' | 'upload_bytes' | 'complete';

/** Which step failed and Slack's error code (or `http_<status>`); never the upload URL. */
export class FileUploadError extends Error {
  constructor(
    readonly step: UploadStep,
    readonly code: string,
  ) {
    super(`file upload failed at ${step}: ${code}`);
    this.name = 'FileUploadError';
  }
}

// The WebClient logs whole answers at debug level, and the upload URL is a credential for the file:
// these calls go through a client of their own that logs nothing. Failures are thrown to the caller.
const quietLogger = (): SlackLogger => {
  let level = LogLevel.WARN;
  return {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
};

/** A client that logs nothing: for calls whose answers hold credentials (upload URLs, private file URLs). */
export function quietClient(client: WebClient): WebClient {
  return new WebClient(client.token, { slackApiUrl: client.slackApiUrl, logger: quietLogger(), retryConfig: { retries: 2 } });
}

/** Slack's error code, or undici's (which names no URL: the upload URL's path carries its secret). */
function slackCode(error: unknown): string {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  if (typeof data?.error === 'string') return data.error;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : 'unknown_error';
}

async function step<T>(name: UploadStep, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FileUploadError) throw error;
    throw new FileUploadError(name, slackCode(error));
  }
}

/** Uploads `upload.path` and shares it in `upload.channelId`; resolves with the Slack file id. */
export async function uploadFile(client: WebClient, upload: FileUpload, options: { signal?: AbortSignal } = {}): Promise<{ fileId: string }> {
  const quiet = quietClient(client);
  const { size } = await stat(upload.path);
  const target = await step('upload_url', async () => {
    const answer = await quiet.files.getUploadURLExternal({ filename: upload.filename, length: size });
    if (!answer.upload_url || !answer.file_id) throw new FileUploadError('upload_url', 'missing_upload_url');
    return { url: answer.upload_url, fileId: answer.file_id };
  });
  await step('upload_bytes', async () => {
    const answer = await request(target.url, {
      method: 'POST',
      body: createReadStream(upload.path),
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    await answer.body.dump();
    if (answer.statusCode !== 200) throw new FileUploadError('upload_bytes', `http_${answer.statusCode}`);
  });
  await step('complete', () =>
    quiet.files.completeUploadExternal({
      files: [{ id: target.fileId, title: upload.title }],
      channel_id: upload.channelId,
      ...(upload.initialComment ? { initial_comment: upload.initialComment } : {}),
      ...(upload.threadTs ? { thread_ts: upload.threadTs } : {}),
    }),
  );
  return { fileId: target.fileId };
}
