import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileUploadError, uploadFile } from '../../../src/slack/files/file-upload.js';

const BOT_TOKEN = 'xoxb-upload-test-token';
const RITA_DM = 'D0REQUESTER';

describe('uploading a file from disk to Slack', () => {
  let slack: LocalSlack;
  let client: WebClient;
  let dir: string;
  let path: string;
  const content = Buffer.from(Array.from({ length: 60_000 }, (_, n) => `row ${n},é,${n % 7}\r\n`).join(''), 'utf8');

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: 'upload0test0signing0secret', botToken: BOT_TOKEN });
    client = new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl });
    dir = await mkdtemp(join(tmpdir(), 'upload-test-'));
    path = join(dir, 'big.csv');
    await writeFile(path, content);
  });
  afterAll(async () => {
    await slack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the whole file, with its length declared up front, and shares it in the DM with its comment', async () => {
    const { fileId } = await uploadFile(client, { path, filename: 'big.csv', title: 'Big export', channelId: RITA_DM, initialComment: 'Here it is' });
    const file = slack.file(fileId)!;
    expect(file.bytes?.equals(content)).toBe(true);
    expect(file.channels).toEqual([RITA_DM]);
    const asked = slack.apiCalls.find((call) => call.method === 'files.getUploadURLExternal')!;
    expect(asked.args).toEqual(expect.objectContaining({ filename: 'big.csv', length: String(content.length) }));
    const message = slack.messages(RITA_DM).at(-1)!;
    expect(message.text).toBe('Here it is');
    expect(message.files).toEqual([{ id: fileId, name: 'big.csv', title: 'Big export', size: content.length }]);
  });

  it("says which step failed and Slack's code, never the upload URL", async () => {
    slack.failNext('files.getUploadURLExternal', { error: 'not_allowed_token_type' });
    const first = await uploadFile(client, { path, filename: 'a.csv', title: 'A', channelId: RITA_DM }).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(FileUploadError);
    expect(first).toMatchObject({ step: 'upload_url', code: 'not_allowed_token_type' });

    const last = await uploadFile(client, { path, filename: 'b.csv', title: 'B', channelId: 'C0NOWHERE' }).catch((error: unknown) => error);
    expect(last).toMatchObject({ step: 'complete', code: 'channel_not_found' });
    expect(String((last as Error).message)).not.toContain('/upload/');
  });
});
