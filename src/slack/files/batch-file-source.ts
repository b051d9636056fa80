/**
 * Reads the file a person chose in the bulk payout or records form (a CSV, TSV or TXT text table, or an .xlsx workbook): `files.info` first (its size and type, so
 * that a file too large is refused before any byte is read), then its private download URL with the
 * bot token in an Authorization header, stopping at the size cap. The token goes only to Slack (see
 * `mayCarryBotToken`); neither the URL nor the token is logged.
 */
import type { WebClient } from '@slack/web-api';
import { request } from 'undici';
import { quietClient } from './file-upload.js';

export type ChosenFile =
  | { ok: true; bytes: Uint8Array; name: string }
  /** `not_csv`: neither a text table (CSV, TSV, TXT) nor an Excel workbook (.xlsx). */
  | { ok: false; problem: 'too_large' | 'not_csv'; name: string }
  | { ok: false; problem: 'unavailable'; code: string }
  /** Its private URL names a host other than Slack's: nothing was downloaded, no token sent. */
  | { ok: false; problem: 'not_on_slack'; name: string };

/** Slack's file host, where `url_private` points for a file uploaded to Slack. */
const SLACK_FILES_ORIGIN = 'https://files.slack.com';

/**
 * Whether a private file URL may be sent the bot token: over https to Slack's file host, or at the
 * Slack API's own origin (slack.com, or SLACK_API_URL's for the local workspace), where every Web API
 * call sends it already. A file's URL comes from Slack's answer, but a file shared from elsewhere can
 * name any host, and the token would open the whole workspace to it.
 */
export function mayCarryBotToken(fileUrl: string, slackApiUrl: string): boolean {
  let origin: string;
  try {
    origin = new URL(fileUrl).origin;
  } catch {
    return false;
  }
  if (origin === SLACK_FILES_ORIGIN) return true;
  try {
    return origin === new URL(slackApiUrl).origin;
  } catch {
    return false;
  }
}

/** Slack's file types for the tables read (`text` is a .txt), and the names' endings that say the same. */
const TABLE_TYPES = new Set(['csv', 'tsv', 'text', 'xlsx']);
const TABLE_ENDINGS = ['.csv', '.tsv', '.txt', '.xlsx'];

/** A text table or an Excel workbook, by Slack's file type or the file's name. */
export function isTableFile(filetype: string, name: string): boolean {
  const lower = name.toLowerCase();
  return TABLE_TYPES.has(filetype.toLowerCase()) || TABLE_ENDINGS.some((ending) => lower.endsWith(ending));
}

function slackCode(error: unknown): string {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : 'unknown_error';
}

export async function readChosenFile(client: WebClient, fileId: string, maxBytes: number, options: { timeoutMs?: number } = {}): Promise<ChosenFile> {
  let info;
  try {
    // Its answer holds the private URL: asked through a client that logs nothing.
    info = (await quietClient(client).files.info({ file: fileId })).file;
  } catch (error) {
    return { ok: false, problem: 'unavailable', code: slackCode(error) };
  }
  const name = info?.name ?? fileId;
  const url = info?.url_private_download ?? info?.url_private;
  if (!info || !url) return { ok: false, problem: 'unavailable', code: 'no_private_url' };
  if ((info.size ?? 0) > maxBytes) return { ok: false, problem: 'too_large', name };
  if (!isTableFile(info.filetype ?? '', name)) return { ok: false, problem: 'not_csv', name };
  if (!mayCarryBotToken(url, client.slackApiUrl)) return { ok: false, problem: 'not_on_slack', name };
  return download(client, url, name, maxBytes, options.timeoutMs ?? 10_000);
}

async function download(client: WebClient, url: string, name: string, maxBytes: number, timeoutMs: number): Promise<ChosenFile> {
  try {
    // undici follows no redirect: Slack's answer to a bad token is a redirect to its sign-in page.
    const answer = await request(url, {
      method: 'GET',
      headers: { authorization: `Bearer ${client.token ?? ''}` },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      return { ok: false, problem: 'unavailable', code: `http_${answer.statusCode}` };
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of answer.body) {
      const piece = chunk as Buffer;
      length += piece.length;
      // Slack's size may be stale or wrong: the download itself stops at the cap.
      if (length > maxBytes) {
        answer.body.destroy();
        return { ok: false, problem: 'too_large', name };
      }
      chunks.push(piece);
    }
    return { ok: true, bytes: Buffer.concat(chunks), name };
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    return { ok: false, problem: 'unavailable', code: typeof code === 'string' ? code : 'download_failed' };
  }
}
