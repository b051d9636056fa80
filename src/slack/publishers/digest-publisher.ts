/**
 * The digest's publisher over Slack's Web API: renders the day with the digest view builder in the
 * channel's language and posts it with chat.postMessage. Its own WebClient never retries, so that a
 * post is never repeated behind the scheduler's back: a failure comes back, the day's claim is given
 * up, and the next tick (here or on another replica) posts it.
 */
import { WebClient } from '@slack/web-api';
import type { DigestPublisher } from '../../digest/index.js';
import type { Logger } from '../../core/logger.js';
import { toBoltLogger } from '../transport/app.js';
import { buildDigestMessage } from '../views/digest.js';
import type { ChannelInvites } from '../channel-invites.js';
import type { Surface } from '../views/text.js';

const DEFAULT_TIMEOUT_MS = 15_000;
/** Slack's answers when it refuses a message's content rather than the call: the text alone may still go. */
const CONTENT_ERRORS = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_blocks_too_long', 'msg_too_long']);

export interface SlackDigestPublisherOptions {
  /** The channel's surface: its locale is the channel's language. */
  surface: Surface;
  logger: Logger;
  timeoutMs?: number;
  /** Remembers a channel nobody invited the bot to (`not_in_channel`), until a post there works. */
  invites?: ChannelInvites;
}

export function createSlackDigestPublisher(client: WebClient, options: SlackDigestPublisherOptions): DigestPublisher {
  if (!client.token) throw new Error('The digest publisher needs a WebClient created with the bot token');
  const digestClient = new WebClient(client.token, {
    slackApiUrl: client.slackApiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    logger: toBoltLogger(options.logger.child({ component: 'digest-slack' })),
  });
  return {
    async post(channelId, digest, delivery) {
      const invited = <T>(send: () => Promise<T>) => (options.invites ? options.invites.post(channelId, 'digest', send) : send());
      const message = buildDigestMessage(options.surface, digest, delivery.late ? { lateDueAt: delivery.dueAt } : {});
      try {
        const answer = await invited(() =>
          digestClient.chat.postMessage({ channel: channelId, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false }),
        );
        return { ts: answer.ts };
      } catch (error) {
        const code = (error as { data?: { error?: unknown } }).data?.error;
        if (typeof code !== 'string' || !CONTENT_ERRORS.has(code)) throw error;
        // Refused, so nothing was posted: the title alone cannot post the day twice.
        options.logger.warn({ code }, 'Slack refused the digest blocks; posting its title alone');
      }
      const answer = await invited(() => digestClient.chat.postMessage({ channel: channelId, text: message.text, unfurl_links: false, unfurl_media: false }));
      return { ts: answer.ts };
    },
  };
}
