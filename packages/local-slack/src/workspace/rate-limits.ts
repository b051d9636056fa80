/**
 * Slack's Web API rate limits, per method and per workspace: each method in its tier (docs.slack.dev
 * "Rate limits" and each method's page), and `chat.postMessage`'s own limit of about one message per
 * second per channel with short bursts. A call over its limit is answered HTTP 429 with `Retry-After`.
 */
import type { Json } from './blocks.js';

/** Slack's tiers: Tier 1 1+ per minute, Tier 2 20+, Tier 3 50+, Tier 4 100+. */
export type RateTier = 1 | 2 | 3 | 4;

/** The tier of each method the app calls, as Slack's method pages give it. */
export const METHOD_TIERS: Readonly<Record<string, RateTier>> = {
  'apps.connections.open': 1,
  'usergroups.users.list': 2,
  'chat.update': 3,
  'chat.delete': 3,
  'conversations.open': 3,
  'conversations.info': 3,
  'functions.completeSuccess': 3,
  'functions.completeError': 3,
  'chat.postEphemeral': 4,
  'views.open': 4,
  'views.push': 4,
  'views.update': 4,
  'views.publish': 4,
  'users.info': 4,
  'files.getUploadURLExternal': 4,
  'files.completeUploadExternal': 4,
  'files.info': 4,
  // "Special" on Slack's pages, generous in practice: counted as Tier 4.
  'auth.test': 4,
  'chat.getPermalink': 4,
};

export interface RateLimitOptions {
  /** Calls a minute in each tier; Slack's floor of each tier by default. */
  perMinute?: Partial<Record<RateTier, number>>;
  /**
   * How many calls a method takes at once before its rate applies (Slack allows short bursts and
   * does not say how many); by default a minute's worth, at least 5 (Tier 1 lets a Socket Mode app
   * reconnect a few times).
   */
  burst?: Partial<Record<RateTier, number>>;
  /** `chat.postMessage` per channel: messages a second (1), and the burst (default 20). */
  postMessagePerSecond?: number;
  postMessageBurst?: number;
}

const TIER_PER_MINUTE: Record<RateTier, number> = { 1: 1, 2: 20, 3: 50, 4: 100 };

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets, one per method (and per channel for `chat.postMessage`). */
export class RateLimits {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly now: () => number,
    private readonly options: RateLimitOptions = {},
  ) {}

  /** Takes one call of `method`: undefined when allowed, else the seconds to wait (`Retry-After`). */
  take(method: string, args: Json): number | undefined {
    const limit = this.limitOf(method, args);
    if (!limit) return undefined;
    const now = this.now();
    const bucket = this.buckets.get(limit.key) ?? { tokens: limit.burst, at: now };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    this.buckets.set(limit.key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
  }

  private limitOf(method: string, args: Json): { key: string; perSecond: number; burst: number } | undefined {
    if (method === 'chat.postMessage') {
      const channel = typeof args.channel === 'string' ? args.channel : '';
      return { key: `${method} ${channel}`, perSecond: this.options.postMessagePerSecond ?? 1, burst: this.options.postMessageBurst ?? 20 };
    }
    const tier = METHOD_TIERS[method];
    if (!tier) return undefined;
    const perMinute = this.options.perMinute?.[tier] ?? TIER_PER_MINUTE[tier];
    return { key: method, perSecond: perMinute / 60, burst: this.options.burst?.[tier] ?? Math.max(5, perMinute) };
  }
}

/** The check the Web API endpoint makes before each call. */
export function rateLimiter(now: () => number, options?: RateLimitOptions): (method: string, args: Json) => number | undefined {
  const limits = new RateLimits(now, options);
  return (method, args) => limits.take(method, args);
}
