import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';
import { mountPage } from '../../src/workspace/page-server.js';

const BOT_TOKEN = 'xoxb-files-test-token';
const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';
const RITA_DM = 'D0REQUESTER';

describe('file uploads in the local workspace', () => {
  let slack: LocalSlack;
  let client: WebClient;

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: 'files0test0signing0secret', botToken: BOT_TOKEN });
    mountPage(slack);
    client = new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(async () => slack?.close());

  const callApi = async (method: string, args: Record<string, string>) =>
    (await (
      await fetch(`${slack.apiUrl}${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BOT_TOKEN}` },
        body: new URLSearchParams(args),
      })
    ).json()) as { ok: boolean; error?: string; upload_url?: string; file_id?: string; file?: { mimetype?: string } };
  const post = (url: string, body: string | Buffer) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });

  it('takes a file through the three steps and shows it in the DM with its bytes, as the SDK helper drives them', async () => {
    const content = 'reference,amount\r\nINV-42,10.00\r\n';
    const answer = await client.filesUploadV2({
      channel_id: RITA_DM,
      filename: 'report.csv',
      title: 'October report',
      content,
      initial_comment: 'Your export',
    });
    expect(answer.ok).toBe(true);
    const message = await slack.waitFor(() => slack.messages(RITA_DM).find((m) => m.files?.length));
    expect(message.text).toBe('Your export');
    expect(message.files).toEqual([{ id: expect.stringMatching(/^F/), name: 'report.csv', title: 'October report', size: Buffer.byteLength(content) }]);
    const file = slack.file(message.files![0]!.id)!;
    expect(file.bytes?.toString('utf8')).toBe(content);
    expect(file.channels).toEqual([RITA_DM]);
    expect(slack.apiCalls.map((call) => call.method)).toEqual(expect.arrayContaining(['files.getUploadURLExternal', 'files.completeUploadExternal']));
  });

  it('refuses an upload URL without a file name or a length', async () => {
    expect((await callApi('files.getUploadURLExternal', { length: '10' })).error).toBe('invalid_arguments');
    expect((await callApi('files.getUploadURLExternal', { filename: 'a.csv' })).error).toBe('invalid_arguments');
    expect((await callApi('files.getUploadURLExternal', { filename: 'a.csv', length: '0' })).error).toBe('invalid_arguments');
  });

  it('refuses to complete an unknown file, one whose bytes never came, or came short, and takes the bytes once', async () => {
    const complete = (id: string) => callApi('files.completeUploadExternal', { files: JSON.stringify([{ id, title: 'x' }]), channel_id: RITA_DM });
    expect((await complete('F0NOSUCHFILE')).error).toBe('file_not_found');
    const never = await callApi('files.getUploadURLExternal', { filename: 'never.csv', length: '5' });
    expect((await complete(never.file_id!)).error).toBe('file_upload_incomplete');
    const short = await callApi('files.getUploadURLExternal', { filename: 'short.csv', length: '5' });
    expect(await (await post(short.upload_url!, 'abc')).text()).toBe('OK - 3');
    expect((await complete(short.file_id!)).error).toBe('file_upload_incomplete');
    expect((await post(short.upload_url!, 'abcde')).status).toBe(404);
    expect((await post(`${slack.url}/upload/00ff00ff`, 'abc')).status).toBe(404);
  });

  it('refuses to share into a conversation that does not exist', async () => {
    const upload = await callApi('files.getUploadURLExternal', { filename: 'a.csv', length: '2' });
    await post(upload.upload_url!, 'ok');
    const answer = await callApi('files.completeUploadExternal', { files: JSON.stringify([{ id: upload.file_id }]), channel_id: 'C0NOWHERE' });
    expect(answer.error).toBe('channel_not_found');
  });

  it('serves a shared PNG as an image the page shows inline, and a file only named .png as a download', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest of the image')]);
    const share = async (name: string, bytes: Buffer) => {
      const upload = await callApi('files.getUploadURLExternal', { filename: name, length: String(bytes.length) });
      await post(upload.upload_url!, bytes);
      await callApi('files.completeUploadExternal', { files: JSON.stringify([{ id: upload.file_id, title: name }]), channel_id: RITA_DM });
      return upload.file_id!;
    };
    const image = await share('chart.png', png);
    const shown = await fetch(`${slack.url}/workspace/files/${image}?as=${RITA}&inline=1`);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('content-disposition')).toBe('inline; filename="chart.png"');
    expect(Buffer.from(await shown.arrayBuffer()).equals(png)).toBe(true);
    expect((await fetch(`${slack.url}/workspace/files/${image}?as=${RITA}`)).headers.get('content-disposition')).toBe('attachment; filename="chart.png"');
    expect((await callApi('files.info', { file: image })).file?.mimetype).toBe('image/png');
    const fake = await share('fake.png', Buffer.from('<script>alert(1)</script>'));
    const download = await fetch(`${slack.url}/workspace/files/${fake}?as=${RITA}&inline=1`);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="fake.png"');
  });

  it('lets the page download a file shared in a DM for that person only', async () => {
    const upload = await callApi('files.getUploadURLExternal', { filename: 'rita.csv', length: '7' });
    await post(upload.upload_url!, 'a,b\r\n1,2'.slice(0, 7));
    await callApi('files.completeUploadExternal', { files: JSON.stringify([{ id: upload.file_id, title: 'Rita' }]), channel_id: RITA_DM });
    const download = await fetch(`${slack.url}/workspace/files/${upload.file_id}?as=${RITA}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="rita.csv"');
    expect(download.headers.get('content-type')).toContain('text/csv');
    expect(await download.text()).toBe('a,b\r\n1,');
    expect((await fetch(`${slack.url}/workspace/files/${upload.file_id}?as=${ABEL}`)).status).toBe(404);
    const state = (await (await fetch(`${slack.url}/workspace/state?as=${RITA}`)).json()) as { messages: Record<string, Array<{ files?: unknown[] }>> };
    expect(state.messages[RITA_DM]!.some((message) => message.files?.length)).toBe(true);
  });
  it('keeps a file a person chose in a file input private, described by files.info, readable only with the bot token', async () => {
    const fileId = slack.uploadFileAs({ userId: RITA, name: 'payouts.csv', bytes: 'kind,number\r\nmobile,243812345678\r\n' });
    const info = await client.files.info({ file: fileId });
    expect(info.file).toMatchObject({ id: fileId, name: 'payouts.csv', filetype: 'csv', size: 34, user: RITA });
    const url = info.file?.url_private_download ?? '';
    expect(url).toMatch(new RegExp(`^${slack.url}/files-pri/`));
    const anonymous = await fetch(url, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    expect((await fetch(url, { redirect: 'manual', headers: { authorization: 'Bearer xoxb-someone-else' } })).status).toBe(302);
    const read = await fetch(url, { headers: { authorization: `Bearer ${BOT_TOKEN}` } });
    expect(await read.text()).toBe('kind,number\r\nmobile,243812345678\r\n');
    expect((await fetch(`${slack.url}/workspace/files/${fileId}?as=${ABEL}`)).status).toBe(404);
    await expect(client.files.info({ file: 'F0NOSUCHFILE' })).rejects.toMatchObject({ data: { error: 'file_not_found' } });
  });
});
