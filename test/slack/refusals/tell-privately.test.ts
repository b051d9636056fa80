import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalSlack, type LocalSlack } from '@fleet-treasury-bot/local-slack';
import { tellPrivately } from '../../../src/slack/refusals/payout-refusals.js';
import { silentLogger } from '../../support/feed-doubles.js';

const BOT_TOKEN = 'xoxb-tell-privately';
const RITA = 'U0REQUESTER';
const ABEL = 'U0APPROVER';
const ROOM = 'C0BOARD';

describe('telling one person why their action was refused', () => {
  let slack: LocalSlack;
  let client: WebClient;

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: 'tell0privately0secret', botToken: BOT_TOKEN, channels: [{ id: ROOM, name: 'board', members: [ABEL] }] });
    slack.invite(ROOM);
    client = new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(async () => slack?.close());

  it('shows it only to them in the channel when they are in it', async () => {
    await tellPrivately(client, silentLogger, { sandbox: false, locale: 'en' }, { channel: ROOM, user: ABEL }, 'Not yours to approve.');
    expect(slack.messages(ROOM, { visibleTo: ABEL }).map((message) => message.text)).toEqual(['Not yours to approve.']);
  });

  it('sends it by DM when Slack answers that they are not in the channel', async () => {
    await tellPrivately(client, silentLogger, { sandbox: false, locale: 'en' }, { channel: ROOM, user: RITA }, 'Not yours to reject.');
    expect(slack.messages(ROOM, { visibleTo: RITA })).toEqual([]);
    expect(slack.messages('D0REQUESTER').map((message) => message.text)).toEqual(['Not yours to reject.']);
  });
});
