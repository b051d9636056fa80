/**
 * The names people go by in Slack, for files that would otherwise show bare user ids (the ledger
 * export's `requested_by_name` and `approved_by_names`). Read with `users.info` (scope `users:read`,
 * which the app's language lookup already needs), kept for an hour, and never waited on for long:
 * a person Slack does not name within the lookup's timeout is left out, and not asked again for a
 * few minutes, so an export of many batches pays that wait at most once per person.
 */
import type { Clock } from '../clock.js';
import type { PersonNames } from '../ledger/export-csv.js';
import type { Logger } from '../logger.js';

/** The part of Slack's Web API this needs. */
export interface UserNameClient {
  users: {
    info(args: { user: string }): Promise<{
      user?: { name?: string | undefined; real_name?: string | undefined; profile?: { display_name?: string | undefined; real_name?: string | undefined } | undefined } | undefined;
    }>;
  };
}

export interface SlackPersonNamesOptions {
  client: UserNameClient;
  logger: Logger;
  clock: Clock;
  /** How long a name is kept; default one hour. */
  cacheSeconds?: number;
  /** How long to wait for one `users.info`; default 1 s. */
  lookupTimeoutMs?: number;
}

// Slack's display names are at most 80 characters; anything longer is cut, not trusted.
const NAME_MAX = 80;
// "Slack gave no name" is kept a few minutes too, so that it is not asked again for every batch.
const NO_NAME_SECONDS = 300;

/** The name Slack shows for a person: the display name, else the full name, else the handle. */
function slackName(user: NonNullable<Awaited<ReturnType<UserNameClient['users']['info']>>['user']>): string | undefined {
  const name = [user.profile?.display_name, user.profile?.real_name, user.real_name, user.name]
    .map((candidate) => candidate?.trim())
    .find((candidate) => candidate !== undefined && candidate !== '');
  return name?.slice(0, NAME_MAX);
}

export class SlackPersonNames implements PersonNames {
  // One entry per person who requested or approved a payout: a team's worth, so no eviction beyond expiry.
  private readonly names = new Map<string, { name: string | undefined; until: number }>();
  private readonly inFlight = new Map<string, Promise<string | undefined>>();

  constructor(private readonly options: SlackPersonNamesOptions) {}

  async namesOf(userIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
    const answers = await Promise.all([...new Set(userIds)].map(async (userId) => [userId, await this.nameOf(userId)] as const));
    return new Map(answers.filter((answer): answer is readonly [string, string] => answer[1] !== undefined));
  }

  private async nameOf(userId: string): Promise<string | undefined> {
    const cached = this.names.get(userId);
    if (cached && cached.until > this.options.clock.now().getTime()) return cached.name;
    let pending = this.inFlight.get(userId);
    if (!pending) {
      pending = this.askSlack(userId).finally(() => this.inFlight.delete(userId));
      this.inFlight.set(userId, pending);
    }
    return pending;
  }

  private async askSlack(userId: string): Promise<string | undefined> {
    const timeoutMs = this.options.lookupTimeoutMs ?? 1000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`users.info took longer than ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    });
    try {
      const answer = await Promise.race([this.options.client.users.info({ user: userId }), timeout]);
      const name = answer.user ? slackName(answer.user) : undefined;
      this.remember(userId, name);
      return name;
    } catch (error) {
      // A refusal, a timeout or a network error alike: the id stands in for the name for a few minutes.
      this.remember(userId, undefined);
      this.options.logger.warn({ userId, reason: reasonOf(error) }, 'could not read a person\'s Slack name; writing their id');
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private remember(userId: string, name: string | undefined): void {
    const seconds = name === undefined ? NO_NAME_SECONDS : this.options.cacheSeconds ?? 3600;
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
