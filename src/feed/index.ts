/** The live transaction feed's public surface, for the wiring in main.ts and the Slack adapter. */
export { TransactionFeed, MAX_ENTRIES_PER_MESSAGE, type TransactionFeedOptions } from './transaction-feed.js';
export { FeedPublishError, type FeedNote, type FeedPost, type FeedPublisher, type FeedSource, type FeedStatus, type PollReport } from './types.js';
export type { FeedSettings } from './settings.js';
export { totalsByCurrency, type CurrencyTotals } from './totals.js';
