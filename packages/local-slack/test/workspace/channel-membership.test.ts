import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '../../src/workspace/index.js';

const BOT_TOKEN = 'xoxb-membership-test';
const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';
const TREASURY = 'C0TREASURY';
const FEED = 'C0FEED';
const PRIVATE_ROOM = 'C0BOARD';

describe('channel membership in the local Slack workspace, as Slack enforces it', () => {
  let slack: LocalSlack;
  const call = async (method: string, args: Record<string, string>) => {
    const response = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Bearer ${BOT_TOKEN}` },
      body: new URLSearchParams(args).toString(),
    });
    return (await response.json()) as Record<string, unknown> & { ok: boolean; error?: string };
  };

  beforeAll(async () => {
    slack = await startLocalSlack({
      signingSecret: 'membershiptestsigningsecret',
      botToken: BOT_TOKEN,
      channels: [
        { id: TREASURY, name: 'treasury' },
        { id: FEED, name: 'treasury-feed' },
        { id: PRIVATE_ROOM, name: 'board', members: [ABEL] },
      ],
    });
  });
  afterAll(async () => slack?.close());

  it('refuses chat.postMessage with not_in_channel until someone invites the bot, then posts', async () => {
    expect(await call('chat.postMessage', { channel: FEED, text: 'first' })).toEqual({ ok: false, error: 'not_in_channel' });
    expect(slack.messages(FEED)).toEqual([]);
    slack.invite(FEED);
    expect((await call('chat.postMessage', { channel: FEED, text: 'second' })).ok).toBe(true);
    expect(slack.messages(FEED).map((message) => message.text)).toEqual(['second']);
  });

  it('refuses again once the bot is removed from the channel', async () => {
    slack.invite(TREASURY);
    slack.removeFromChannel(TREASURY);
    expect(await call('chat.postMessage', { channel: '#treasury', text: 'gone' })).toEqual({ ok: false, error: 'not_in_channel' });
  });

  it('posts in a DM without any invite: the bot is always in its DMs', async () => {
    expect((await call('chat.postMessage', { channel: RITA, text: 'Just for you' })).ok).toBe(true);
  });

  it('answers user_not_in_channel to chat.postEphemeral for a person outside the channel', async () => {
    slack.invite(PRIVATE_ROOM);
    expect(await call('chat.postEphemeral', { channel: PRIVATE_ROOM, user: RITA, text: 'psst' })).toEqual({ ok: false, error: 'user_not_in_channel' });
    expect((await call('chat.postEphemeral', { channel: PRIVATE_ROOM, user: ABEL, text: 'psst' })).ok).toBe(true);
    expect(slack.messages(PRIVATE_ROOM, { visibleTo: RITA })).toEqual([]);
  });

  it('tells the truth about is_member in conversations.info, and lists members in the directory', async () => {
    const room = await call('conversations.info', { channel: PRIVATE_ROOM });
    const treasury = await call('conversations.info', { channel: TREASURY });
    expect(room.channel).toMatchObject({ id: PRIVATE_ROOM, is_member: true });
    expect(treasury.channel).toMatchObject({ id: TREASURY, is_member: false });
    expect(slack.directory().channels.find((channel) => channel.id === PRIVATE_ROOM)?.members).toEqual([ABEL, 'U0FLEETBOT']);
  });

  it('refuses to share a file into a channel the bot is not in, and keeps the file unshared', async () => {
    const upload = await call('files.getUploadURLExternal', { filename: 'a.csv', length: '3' });
    await fetch(String(upload.upload_url), { method: 'POST', body: 'a,b' });
    const files = JSON.stringify([{ id: String(upload.file_id), title: 'A' }]);
    expect(await call('files.completeUploadExternal', { files, channel_id: TREASURY })).toEqual({ ok: false, error: 'not_in_channel' });
    expect(slack.file(String(upload.file_id))?.channels).toEqual([]);
    expect(slack.messages(TREASURY)).toEqual([]);
  });
});
