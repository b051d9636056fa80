import { describe, expect, it } from 'vitest';
import { ChannelInvites } from '../../../src/slack/channel-invites.js';
import { missingInviteLines, requestWaitingLine } from '../../../src/slack/views/channel-invites.js';

const notInChannel = Object.assign(new Error('An API error occurred: not_in_channel'), { data: { ok: false, error: 'not_in_channel' } });

describe('the channels the bot must be invited to', () => {
  it('remembers a channel Slack refused with not_in_channel, for each use, until a post there works', async () => {
    const invites = new ChannelInvites(
      async () => 'U0BOT',
      () => new Date('2026-11-28T10:00:00Z'),
    );
    await expect(invites.post('C0FEED', 'feed', () => Promise.reject(notInChannel))).rejects.toBe(notInChannel);
    await expect(invites.post('C0FEED', 'alerts', () => Promise.reject(notInChannel))).rejects.toBe(notInChannel);
    await expect(invites.post('C0OTHER', 'digest', () => Promise.reject(new Error('timeout')))).rejects.toThrow('timeout');
    expect(invites.list()).toEqual([{ channel: 'C0FEED', uses: ['feed', 'alerts'], since: new Date('2026-11-28T10:00:00Z') }]);
    expect(await invites.post('C0FEED', 'feed', async () => 'posted')).toBe('posted');
    expect(invites.list()).toEqual([]);
  });

  it('asks Slack who the bot is once, and only when a message names it', async () => {
    let asked = 0;
    const invites = new ChannelInvites(async () => {
      asked += 1;
      return 'U0BOT';
    });
    expect(asked).toBe(0);
    expect(await invites.botUserId()).toBe('U0BOT');
    expect(await invites.botUserId()).toBe('U0BOT');
    expect(asked).toBe(1);
  });

  it('says what cannot be posted where, and how to invite the bot, in English and French', () => {
    const missing = [{ channel: 'C0FEED', uses: ['feed' as const], since: new Date() }];
    expect(missingInviteLines('en', missing, 'U0BOT')).toEqual([
      ':warning: The feed cannot post in <#C0FEED>: invite <@U0BOT> to <#C0FEED> (in <#C0FEED>, type `/invite` and pick <@U0BOT>). It catches up on what it missed once it is in.',
    ]);
    expect(missingInviteLines('fr', missing, 'U0BOT')[0]).toBe(
      ':warning: Le flux ne peut pas publier dans <#C0FEED> : invitez <@U0BOT> dans <#C0FEED> (dans <#C0FEED>, tapez `/invite` et choisissez <@U0BOT>). Il rattrapera ce qu’il a manqué ensuite.',
    );
    expect(requestWaitingLine('fr', 'C0APPROVALS', undefined)).toContain('je ne suis pas dans <#C0APPROVALS>. Invitez l’application dans <#C0APPROVALS>');
  });
});
