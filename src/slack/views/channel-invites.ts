/** The lines that name a channel the bot must be invited to, and how to invite it. */
import { textsFor, type Locale } from '../../i18n/index.js';
import type { ChannelUse, MissingInvite } from '../channel-invites.js';
import { mentionChannel, mentionUser } from './text.js';

const USE_KEYS = {
  approvals: 'invite.use.approvals',
  feed: 'invite.use.feed',
  digest: 'invite.use.digest',
  alerts: 'invite.use.alerts',
} as const satisfies Record<ChannelUse, string>;

function names(locale: Locale, channelId: string, botUserId: string | undefined): { channel: string; bot: string; howTo: string } {
  const t = textsFor(locale);
  const channel = mentionChannel(channelId);
  const bot = botUserId ? mentionUser(botUserId) : t('invite.theApp');
  return { channel, bot, howTo: t('invite.howTo', { channel, bot }) };
}

/** One line per use of each channel that waits for an invite: what cannot be posted, where, and how to fix it. */
export function missingInviteLines(locale: Locale, invites: MissingInvite[], botUserId: string | undefined): string[] {
  const t = textsFor(locale);
  return invites.flatMap((invite) => invite.uses.map((use) => t(USE_KEYS[use], names(locale, invite.channel, botUserId))));
}

/** Told to a requester whose request's approval message Slack refused: approvers cannot see it yet. */
export function requestWaitingLine(locale: Locale, channelId: string, botUserId: string | undefined): string {
  return textsFor(locale)('invite.requestWaiting', names(locale, channelId, botUserId));
}
