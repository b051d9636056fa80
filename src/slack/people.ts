/**
 * Who people are in Slack, read with `users.info` (scope `users:read`): one reader, `SlackUsers`,
 * shared by each person's language (`locales.ts`) and the names the export writes beside user ids.
 * It never waits long (a lookup past its timeout fails) and asks once for many concurrent askers;
 * each caller keeps its own cache, since a language and a name go stale at different paces.
 */
import type { Clock } from '../core/clock.js';
import type { PersonNames } from '../ledger/export-csv.js';
import type { Logger } from '../core/logger.js';

/** What this app reads of a Slack user. */
export interface SlackUser {
  name?: string | undefined;
  real_name?: string | undefined;
  locale?: string | undefined;
  profile?: { display_name?: string | undefined; real_name?: string | undefined } | undefined;
}

/** The part of Slack's Web API this needs. */
export interface UsersInfoClient {
  users: {
    info(args: { user: string; include_locale: boolean }): Promise<{ user?: SlackUser | undefined }>;
  };
}

/**
 * `users.info` with the person's locale, within `timeoutMs` (default 1 s, so that a modal submission
 * that needs the language still answers Slack within its 3 seconds). Rejects on Slack's refusal, a
 * network error or the timeout; concurrent lookups of one person share one request.
 */
export class SlackUsers {
  private readonly inFlight = new Map<string, Promise<SlackUser | undefined>>();

  constructor(
    private readonly client: UsersInfoClient,
    private readonly timeoutMs = 1000,
  ) {}

  info(userId: string): Promise<SlackUser | undefined> {
    let pending = this.inFlight.get(userId);
    if (!pending) {
      pending = this.ask(userId).finally(() => this.inFlight.delete(userId));
      this.inFlight.set(userId, pending);
    }
    return pending;
  }

  private async ask(userId: string): Promise<SlackUser | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`users.info took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
      timer.unref();
    });
    try {
      return (await Promise.race([this.client.users.info({ user: userId, include_locale: true }), timeout])).user;
    } finally {
      clearTimeout(timer);
    }
  }
}

export interface SlackPersonNamesOptions {
  users: SlackUsers;
  logger: Logger;
  clock: Clock;
  /** How long a name is kept; default one hour. */
  cacheSeconds?: number;
}

// Slack's display names are at most 80 characters; anything longer is cut, not trusted.
const NAME_MAX = 80;
// "Slack gave no name" is kept a few minutes too, so that it is not asked again for every batch.
const NO_NAME_SECONDS = 300;

/** The name Slack shows for a person: the display name, else the full name, else the handle. */
function slackName(user: SlackUser): string | undefined {
  const name = [user.profile?.display_name, user.profile?.real_name, user.real_name, user.name]
    .map((candidate) => candidate?.trim())
    .find((candidate) => candidate !== undefined && candidate !== '');
  return name?.slice(0, NAME_MAX);
}

export class SlackPersonNames implements PersonNames {
  // One entry per person who requested or approved a payout: a team's worth, so no eviction beyond expiry.
  private readonly names = new Map<string, { name: string | undefined; until: number }>();

  constructor(private readonly options: SlackPersonNamesOptions) {}

  async namesOf(userIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const answers = await Promise.all([...new Set(userIds)].map(async (userId) => [userId, await this.nameOf(userId)] as const));
    return new Map(answers.filter((answer): answer is readonly [string, string] => answer[1] !== undefined));
  }

  private async nameOf(userId: string): Promise<string | undefined> {
    const cached = this.names.get(userId);
    if (cached && cached.until > this.options.clock.now().getTime()) return cached.name;
    try {
      const user = await this.options.users.info(userId);
      const name = user ? slackName(user) : undefined;
      this.remember(userId, name);
      return name;
    } catch (error) {
      // A refusal, a timeout or a network error alike: the id stands in for the name for a few minutes.
      this.remember(userId, undefined);
      this.options.logger.warn({ userId, reason: reasonOf(error) }, "could not read a person's Slack name; writing their id");
      return undefined;
    }
  }

  private remember(userId: string, name: string | undefined): void {
    const seconds = name === undefined ? NO_NAME_SECONDS : (this.options.cacheSeconds ?? 3600);
    this.names.set(userId, { name, until: this.options.clock.now().getTime() + seconds * 1000 });
  }
}

/** Slack's error code, or the error's own code or message; never the request. */
function reasonOf(error: unknown): string {
  const slackCode = (error as { data?: { error?: unknown } } | null)?.data?.error;
  if (typeof slackCode === 'string') return slackCode;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
