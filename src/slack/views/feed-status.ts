/** The `/fleet feed` reply: where the feed posts, how often, and whether it is keeping up. */
import type { KnownBlock } from '@slack/types';
import type { FeedStatus } from '../../feed/types.js';
import { textsFor, type Locale } from '../../i18n/index.js';
import type { MissingInvite } from '../channel-invites.js';
import { fleetCodeText } from '../refusals/failures.js';
import { missingInviteLines } from './channel-invites.js';
import { notice, type Reply } from './notice.js';
import { codeSpan, escapeMrkdwn, escapeWithin, formatDuration, mentionChannel, sandboxFooter, type Surface } from './text.js';
import { slackDate } from './dates.js';

const ERROR_MAX = 300;

/**
 * `status` is undefined when the feed is off (no FEED_CHANNEL_ID). `invites` names every channel
 * where Slack refused a post because nobody invited the bot, the feed's or another's.
 */
export function buildFeedStatusMessage(
  surface: Surface,
  status: FeedStatus | undefined,
  now: Date,
  invites: { missing: MissingInvite[]; botUserId: string | undefined } = { missing: [], botUserId: undefined },
): Reply {
  const { locale } = surface;
  const t = textsFor(locale);
  const inviteLines = missingInviteLines(locale, invites.missing, invites.botUserId);
  if (!status) return notice(surface, [t('feedStatus.off'), ...inviteLines].join('\n'));

  const headline = t('feedStatus.headline', { channel: mentionChannel(status.channelId), seconds: status.pollIntervalSeconds });
  const lines = [
    t('feedStatus.health', { health: health(locale, status) }),
    status.lastSuccessfulPollAt
      ? t('feedStatus.lastCheck', {
          when: slackDate(status.lastSuccessfulPollAt, undefined, surface),
          ago: formatDuration(now.getTime() - status.lastSuccessfulPollAt.getTime(), locale),
        })
      : t('feedStatus.lastCheckNone'),
    status.newestPosted
      ? t('feedStatus.newest', {
          reference: codeSpan(status.newestPosted.reference, 80),
          date: slackDate(status.newestPosted.date, undefined, surface),
          posted: slackDate(status.newestPosted.postedAt, undefined, surface),
        })
      : t('feedStatus.newestNone'),
  ];
  if (status.pendingEntries > 0) lines.push(t('feedStatus.pending', { count: status.pendingEntries }));
  if (status.lateEntries > 0) lines.push(t('feedStatus.late', { count: status.lateEntries }));
  if (status.unreadableEntries > 0) lines.push(t('feedStatus.unreadable', { count: status.unreadableEntries }));
  if (status.futureDatedEntries > 0) lines.push(t('feedStatus.future', { count: status.futureDatedEntries }));
  if (status.lastError) {
    const resolved = status.lastSuccessfulPollAt !== undefined && status.lastSuccessfulPollAt > status.lastError.at;
    const vars = { error: feedErrorText(locale, status.lastError.code), date: slackDate(status.lastError.at, undefined, surface) };
    lines.push(resolved ? t('feedStatus.lastErrorResolved', vars) : t('feedStatus.lastError', vars));
  }
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: headline } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
    ...(inviteLines.length > 0 ? [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text: inviteLines.join('\n') } }] : []),
    ...sandboxFooter(surface),
  ];
  const text = t('feedStatus.text', { health: plainHealth(locale, status) });
  return { text, blocks };
}

/**
 * The feed's last error from its code (`fleet:unavailable`, `slack:channel_not_found`, …). A stored
 * text that is no code (written by an older version) is shown as it is, escaped.
 */
function feedErrorText(locale: Locale, code: string): string {
  const t = textsFor(locale);
  const [source, detail = ''] = code.split(/:(.*)/s);
  if (source === 'fleet') return fleetCodeText(locale, detail) ?? t('feedStatus.error.unexpected');
  if (source === 'slack') {
    if (detail === 'ratelimited') return t('feedStatus.error.slackRateLimited');
    if (detail === 'request_error') return t('feedStatus.error.slackUnreachable');
    return t('feedStatus.error.slack', { code: codeSpan(detail, 60) });
  }
  if (code === 'lease_lost') return t('feedStatus.error.leaseLost');
  if (code === 'source_not_ready') return t('feedStatus.error.sourceNotReady');
  if (code === 'unexpected') return t('feedStatus.error.unexpected');
  return escapeWithin(code, ERROR_MAX);
}

function health(locale: Locale, status: FeedStatus): string {
  const t = textsFor(locale);
  if (!status.started) return t('feedStatus.starting');
  if (status.behindMs > 0) return t('feedStatus.behind', { duration: formatDuration(status.behindMs, locale) });
  return t('feedStatus.upToDate');
}

/** `up to date`, `3 min behind`, `starting`: the feed's health in a few words. */
export function plainHealth(locale: Locale, status: FeedStatus): string {
  const t = textsFor(locale);
  if (!status.started) return t('feedStatus.plainStarting');
  if (status.behindMs > 0) return t('feedStatus.plainBehind', { duration: escapeMrkdwn(formatDuration(status.behindMs, locale)) });
  return t('feedStatus.plainUpToDate');
}
