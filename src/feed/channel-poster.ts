/**
 * Posts feed messages at the pace Slack allows: about one message per second per channel, and a
 * 429 waited out for as long as its Retry-After asks before the same message is tried again.
 */
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { FeedPublishError, type FeedPost, type FeedPublisher } from './types.js';

const MIN_MESSAGE_SPACING_MS = 1000;
/** After this many 429s in a row for one message the poll gives up and backs off. */
const MAX_RATE_LIMIT_WAITS = 10;
const DEFAULT_RETRY_AFTER_MS = 30_000;

export interface ChannelPosterOptions {
  publisher: FeedPublisher;
  clock: Clock;
  logger: Logger;
  /** Checked before every attempt; false aborts the post (another replica took the feed over). */
  stillInCharge: () => Promise<boolean>;
}

export class LostFeedLeaseError extends Error {
  constructor() {
    super('another replica took the feed over');
    this.name = 'LostFeedLeaseError';
  }
}

export class ChannelPoster {
  private readonly lastPostAt = new Map<string, number>();

  constructor(private readonly options: ChannelPosterOptions) {}

  /** Resolves once Slack accepted the message; throws when it will not, or when we lost the lease. */
  async post(channelId: string, post: FeedPost, signal?: AbortSignal): Promise<void> {
    const { publisher, clock, logger } = this.options;
    for (let waits = 0; ; waits += 1) {
      await this.waitForTurn(channelId, signal);
      if (!(await this.options.stillInCharge())) throw new LostFeedLeaseError();
      this.lastPostAt.set(channelId, clock.now().getTime());
      try {
        await publisher.publish(channelId, post);
        return;
      } catch (error) {
        if (!(error instanceof FeedPublishError) || error.retryAfterMs === undefined || waits >= MAX_RATE_LIMIT_WAITS) throw error;
        const waitMs = Number.isFinite(error.retryAfterMs) ? Math.max(error.retryAfterMs, MIN_MESSAGE_SPACING_MS) : DEFAULT_RETRY_AFTER_MS;
        logger.warn({ channelId, retryAfterMs: waitMs }, 'Slack is rate limiting the feed; waiting before posting again');
        await clock.sleep(waitMs, signal);
      }
    }
  }

  private async waitForTurn(channelId: string, signal?: AbortSignal): Promise<void> {
    const last = this.lastPostAt.get(channelId);
    if (last === undefined) return;
    const waitMs = last + MIN_MESSAGE_SPACING_MS - this.options.clock.now().getTime();
    if (waitMs > 0) await this.options.clock.sleep(waitMs, signal);
  }
}
