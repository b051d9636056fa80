/**
 * The feed's publisher over Slack's Web API: renders each feed post with the feed view builder and
 * sends it with chat.postMessage. It uses its own WebClient (same token and API URL as the app's)
 * that never retries and rejects rate-limited calls, so that a 429 comes back to the feed with its
 * Retry-After (the feed waits it out on its clock) and a post is never repeated behind its back.
 */
import { ErrorCode, WebClient } from '@slack/web-api';
import { FeedPublishError, type FeedPublisher } from '../../feed/types.js';
import type { Logger } from '../../core/logger.js';
import { toBoltLogger } from '../transport/app.js';
import type { ChannelInvites } from '../channel-invites.js';
import type { Surface } from '../views/text.js';
import { buildFeedFallbackText, buildFeedMessage } from '../views/feed.js';

const DEFAULT_TIMEOUT_MS = 15_000;
/** Slack's answers when it refuses a message's content rather than the call: the text alone may still go. */
const CONTENT_ERRORS = new Set(['invalid_blocks', 'invalid_blocks_format', 'msg_blocks_too_long', 'msg_too_long']);
/** When Slack says "rate limited" without saying for how long. */
const DEFAULT_RETRY_AFTER_MS = 30_000;

export interface SlackFeedPublisherOptions {
  surface: Surface;
  logger: Logger;
  /** Per-request timeout; default 15 s. */
  timeoutMs?: number;
  /** Remembers a channel nobody invited the bot to (`not_in_channel`), until a post there works. */
  invites?: ChannelInvites;
}

export function createSlackFeedPublisher(client: WebClient, options: SlackFeedPublisherOptions): FeedPublisher {
  if (!client.token) throw new Error('The feed publisher needs a WebClient created with the bot token');
  const feedClient = new WebClient(client.token, {
    slackApiUrl: client.slackApiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    logger: toBoltLogger(options.logger.child({ component: 'feed-slack' })),
  });
  return {
    async publish(channelId, post) {
      const use = post.kind === 'balance_low' || post.kind === 'balance_recovered' ? 'alerts' : 'feed';
      const invited = <T>(send: () => Promise<T>) => (options.invites ? options.invites.post(channelId, use, send) : send());
      const message = buildFeedMessage(options.surface, post);
      try {
        await invited(() =>
          feedClient.chat.postMessage({ channel: channelId, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false }),
        );
        return;
      } catch (error) {
        const failure = toFeedPublishError(error);
        if (!CONTENT_ERRORS.has(failure.details.code ?? '')) throw failure;
        // Refused, so nothing was posted: sending the text alone cannot post the entries twice.
        options.logger.warn({ code: failure.details.code }, 'Slack refused the feed blocks; posting the entries as text');
      }
      try {
        await invited(() =>
          feedClient.chat.postMessage({ channel: channelId, text: buildFeedFallbackText(options.surface, post), unfurl_links: false, unfurl_media: false }),
        );
      } catch (error) {
        throw toFeedPublishError(error);
      }
    },
  };
}

/** Maps @slack/web-api's error shapes to what the feed understands: a code, and retryAfterMs on a 429. */
function toFeedPublishError(error: unknown): FeedPublishError {
  const shape = (error ?? {}) as {
    code?: unknown;
    retryAfter?: unknown;
    statusCode?: unknown;
    message?: unknown;
    data?: { error?: unknown; response_metadata?: { retryAfter?: unknown } };
  };
  if (shape.code === ErrorCode.RateLimitedError) {
    const seconds = typeof shape.retryAfter === 'number' ? shape.retryAfter : undefined;
    return new FeedPublishError('Slack is rate limiting the feed', {
      code: 'ratelimited',
      retryAfterMs: seconds !== undefined ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS,
      cause: error,
    });
  }
  if (shape.code === ErrorCode.PlatformError) {
    const slackError = typeof shape.data?.error === 'string' ? shape.data.error : 'unknown_error';
    if (slackError === 'ratelimited' || slackError === 'rate_limited') {
      const seconds = shape.data?.response_metadata?.retryAfter;
      return new FeedPublishError('Slack is rate limiting the feed', {
        code: 'ratelimited',
        retryAfterMs: typeof seconds === 'number' ? seconds * 1000 : DEFAULT_RETRY_AFTER_MS,
        cause: error,
      });
    }
    return new FeedPublishError(`Slack refused the feed message: ${slackError}`, { code: slackError, cause: error });
  }
  // A 429 whose Retry-After the SDK could not read arrives as a plain Error saying so.
  if (typeof shape.message === 'string' && /retry header/i.test(shape.message)) {
    return new FeedPublishError('Slack is rate limiting the feed', { code: 'ratelimited', retryAfterMs: DEFAULT_RETRY_AFTER_MS, cause: error });
  }
  if (shape.code === ErrorCode.HTTPError) {
    return new FeedPublishError(`Slack answered HTTP ${String(shape.statusCode)} to the feed message`, { code: 'http_error', cause: error });
  }
  return new FeedPublishError('Could not reach Slack to post the feed message', { code: 'request_error', cause: error });
}
