/** The `/fleet feed` reply: where the feed posts, how often, and whether it is keeping up. */
import type { KnownBlock } from '@slack/types';
import type { FeedStatus } from '../../feed/types.js';
import type { Reply } from './common.js';
import { codeSpan, escapeMrkdwn, escapeWithin, formatDuration, mentionChannel, sandboxFooter, slackDate, type Surface } from './text.js';

/** `status` is undefined when the feed is off (no FEED_CHANNEL_ID). */
export function buildFeedStatusMessage(surface: Surface, status: FeedStatus | undefined, now: Date): Reply {
  if (!status) {
    const text = 'The transaction feed is off. An admin turns it on by setting FEED_CHANNEL_ID to a channel the app is in.';
    const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text } }, ...sandboxFooter(surface)];
    return { text, blocks };
  }

  const headline = `*Transaction feed* posts new fleet transactions to ${mentionChannel(status.channelId)}, checking about every ${status.pollIntervalSeconds} s.`;
  const lines = [
    `*Health:* ${health(status)}`,
    `*Last successful check:* ${status.lastSuccessfulPollAt ? `${slackDate(status.lastSuccessfulPollAt)} (${formatDuration(now.getTime() - status.lastSuccessfulPollAt.getTime())} ago)` : 'none yet'}`,
    `*Newest entry posted:* ${status.newestPosted
      ? `${codeSpan(status.newestPosted.reference, 80)} dated ${slackDate(status.newestPosted.date)}, posted ${slackDate(status.newestPosted.postedAt)}`
      : 'none yet'}`,
  ];
  if (status.pendingEntries > 0) lines.push(`*Waiting to be posted:* ${status.pendingEntries.toLocaleString('en-US')} entries`);
  if (status.lateEntries > 0) lines.push(`*Posted late:* ${status.lateEntries.toLocaleString('en-US')} entries that showed up after newer ones were posted`);
  if (status.unreadableEntries > 0) {
    lines.push(`*Unreadable entries:* ${status.unreadableEntries.toLocaleString('en-US')} in the last check did not match the Fleet API's format and were skipped (the logs say which field)`);
  }
  if (status.futureDatedEntries > 0) lines.push(`*Dated in the future:* ${status.futureDatedEntries.toLocaleString('en-US')} entries, posted marked`);
  if (status.lastError) {
    const resolved = status.lastSuccessfulPollAt !== undefined && status.lastSuccessfulPollAt > status.lastError.at;
    lines.push(`*Last error:* ${escapeWithin(status.lastError.message, 300)} (${slackDate(status.lastError.at)}${resolved ? ', resolved since' : ''})`);
  }
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: headline } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
    ...sandboxFooter(surface),
  ];
  const text = `Transaction feed: ${plainHealth(status)}`;
  return { text, blocks };
}

function health(status: FeedStatus): string {
  if (!status.started) return ':hourglass: starting: no successful check yet';
  if (status.behindMs > 0) return `:warning: *${formatDuration(status.behindMs)} behind*`;
  return ':white_check_mark: up to date';
}

function plainHealth(status: FeedStatus): string {
  if (!status.started) return 'starting';
  if (status.behindMs > 0) return `${escapeMrkdwn(formatDuration(status.behindMs))} behind`;
  return 'up to date';
}
