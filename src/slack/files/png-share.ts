/**
 * PNG images the app draws for a person or a thread (the runway chart), uploaded through
 * `file-upload.ts` from a temporary file that is removed afterwards.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WebClient } from '@slack/web-api';
import { FileUploadError, uploadFile } from './file-upload.js';

export interface PngFile {
  filename: string;
  title: string;
  comment: string;
  png: Buffer;
}

/** Shares `file` in `channelId` (a DM, or a thread with `threadTs`); resolves with the Slack file id. */
export async function sharePng(client: WebClient, channelId: string, file: PngFile, threadTs?: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'fleet-png-'));
  try {
    const path = join(folder, file.filename);
    await writeFile(path, file.png);
    const { fileId } = await uploadFile(client, {
      path,
      filename: file.filename,
      title: file.title,
      channelId,
      initialComment: file.comment,
      ...(threadTs ? { threadTs } : {}),
    });
    return fileId;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Opens the person's DM with the app and shares `file` there. */
export async function sendPngToPerson(client: WebClient, userId: string, file: PngFile): Promise<string> {
  const opened = await client.conversations.open({ users: userId });
  const channelId = opened.channel?.id;
  if (!channelId) throw new FileUploadError('complete', 'channel_not_found');
  return sharePng(client, channelId, file);
}
