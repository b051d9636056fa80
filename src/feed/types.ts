/** The feed's vocabulary: what it posts, how it reports a poll, and what `/fleet feed` shows. */
import type { Transaction } from '../fleet/schemas.js';

/** A line added to a feed message to explain a gap or a jump. */
export type FeedNote =
  /** The feed was behind (outage, restart, takeover) for `behindMs` and has now caught up. */
  | { kind: 'caught_up'; behindMs: number }
  /** More than FEED_MAX_BACKLOG arrived at once: `count` earlier entries were not posted. */
  | { kind: 'overflow'; count: number; atLeast: boolean }
  /** The message's `count` entries showed up in the list after newer entries had been posted. */
  | { kind: 'late'; count: number }
  /** The message's `count` entries are dated more than MAX_CLOCK_SKEW_MS ahead of the database's clock. */
  | { kind: 'future_dated'; count: number };

/** One Slack message the feed wants posted. The Slack adapter turns it into Block Kit. */
export type FeedPost =
  /** New entries, oldest first, at most `MAX_ENTRIES_PER_MESSAGE`. */
  | { kind: 'transactions'; entries: Transaction[]; notes: FeedNote[] }
  /** Notes with no entries, such as "caught up after an outage, nothing missed". */
  | { kind: 'notice'; notes: FeedNote[] }
  | { kind: 'balance_low'; currency: string; balanceMinor: number; thresholdMinor: number }
  | { kind: 'balance_recovered'; currency: string; balanceMinor: number; thresholdMinor: number };

/** Something that posts a feed message; resolves only once Slack accepted it. */
export interface FeedPublisher {
  publish(channelId: string, post: FeedPost): Promise<void>;
}

/**
 * The one reader of the API's list when the feed does not read it itself (the ledger's sync, whose
 * stored copy the feed then reads). The feed asks it to read at least once per feed interval, is
 * woken when a read stored new entries, and polls only on the replica where that reader runs, so
 * that what it read is posted at once, not one more interval later.
 */
export interface FeedSource {
  /** Reads the newest entries at least every `everyMs`, and calls `onNewEntries` after a read stored new ones. */
  follow(follower: { everyMs: number; onNewEntries: () => void }): void;
  /** Whether this replica is the one reading the list now. */
  readsHere(): boolean;
  /**
   * The entries it stored after `afterPosition` (positions grow with every entry stored, whatever its
   * date) and dated at or after `fromMs`, in the order it stored them, at most `limit`; without a
   * position, from the first entry dated at or after `fromMs`. The late sweep compares them with what
   * the feed posted: the source holds every entry, so a gap shows whatever its cause.
   */
  storedSince(afterPosition: number | undefined, fromMs: number, limit: number): Promise<Array<{ position: number; transaction: Transaction }>>;
}

/** A failed post. `retryAfterMs` is set when Slack asked us to slow down (HTTP 429). */
export class FeedPublishError extends Error {
  constructor(
    message: string,
    readonly details: { retryAfterMs?: number; code?: string; cause?: unknown } = {},
  ) {
    super(message, { cause: details.cause });
    this.name = 'FeedPublishError';
  }

  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
}

/** What one poll did; returned by `TransactionFeed.pollOnce()`. */
export interface PollReport {
  /** False when another replica holds the lease (or the feed is stopping): nothing was read. */
  polled: boolean;
  fleetRequests: number;
  /** Entries found new in this poll (posted or not). */
  newEntries: number;
  postedEntries: number;
  messages: number;
  /** Earlier entries left out because more than FEED_MAX_BACKLOG arrived. */
  skippedEntries: number;
  /** Posted entries dated in the future (included in `postedEntries`). */
  futureDatedEntries: number;
  /** Entries the late sweep found and posted (included in `postedEntries`). */
  lateEntries: number;
  /** Of those, entries the sweep over the ledger found missing from the channel (a gap the polls left). */
  gapEntries: number;
  /** Malformed entries in the pages this poll read, left out (the client logs each one). */
  unreadableEntries: number;
  alertsPosted: number;
  /** Set when the poll stopped early, to a `FeedErrorCode`; the cursor keeps every entry not yet posted. */
  error?: FeedErrorCode;
}

/** What `/fleet feed` shows; read from the database so that any replica can answer. */
export interface FeedStatus {
  channelId: string;
  pollIntervalSeconds: number;
  /** False before the feed's first successful poll on this channel. */
  started: boolean;
  lastSuccessfulPollAt: Date | undefined;
  newestPosted: { reference: string; date: Date; postedAt: Date } | undefined;
  /** How long the channel has been missing entries: 0 when up to date. */
  behindMs: number;
  /** Entries seen but not yet posted at the last poll (a backlog being worked through). */
  pendingEntries: number;
  /** Entries posted late (dated before entries already posted) since the feed started. */
  lateEntries: number;
  /** Of those, entries the sweep over the ledger found missing (the ledger held them; no poll posted them). */
  gapEntries: number;
  /** Entries posted that were dated in the future since the feed started. */
  futureDatedEntries: number;
  /** Malformed entries left out in the last complete poll. */
  unreadableEntries: number;
  /** The last failed poll's `FeedErrorCode`; rows written before codes hold an English text instead. */
  lastError: { code: string; at: Date } | undefined;
}

/**
 * Why a poll stopped, as data for the Slack layer to put in words: `fleet:<FleetErrorCode>`,
 * `slack:<Slack's error code>` (`slack:ratelimited`, `slack:request_error`, …), `lease_lost` when
 * another replica took the feed over, `source_not_ready` while the ledger's first read is still on
 * its way, `unexpected` for anything else (the log has the details).
 */
export type FeedErrorCode = `fleet:${string}` | `slack:${string}` | 'lease_lost' | 'source_not_ready' | 'unexpected';
