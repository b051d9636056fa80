/**
 * Who may do what: a user is allowed when an access list names them, names a user group they are
 * in, or is `*`. Group membership comes from `usergroups.users.list`, cached for a minute and
 * fetched once however many checks wait for it; a `fresh` check (before money moves) asks Slack
 * again, past the cache, one read per group shared by the fresh checks made while it is on its way
 * or asked less than `FRESH_READ_REUSE_MS` ago (the gate asks for the requester and every
 * approver at once, and a run of due occurrences or Stop clicks would otherwise read once each).
 */
import NodeCache from 'node-cache';
import type { WebClient } from '@slack/web-api';
import { systemClock, type Clock } from '../core/clock.js';
import type { AccessList } from '../config/config.js';
import type { Logger } from '../core/logger.js';

/**
 * How long a fresh read of a group stands for later fresh checks. Short next to the minute's cache
 * and to how long an admin's change takes to matter (docs/payouts.md, "The gate before sending"),
 * and long enough that a burst shares one `usergroups.users.list` (Slack allows about 20 a minute).
 */
export const FRESH_READ_REUSE_MS = 5_000;

export class AccessControl {
  private readonly members = new NodeCache({ stdTTL: 60, useClones: false });
  private readonly inFlight = new Map<string, Promise<ReadonlySet<string>>>();
  /** Each group's fresh read while it is on its way. */
  private readonly freshReads = new Map<string, Promise<ReadonlySet<string>>>();
  /** Each group's last answered fresh read, and when it was asked. */
  private readonly freshAnswers = new Map<string, { members: ReadonlySet<string>; at: number }>();
  /** Groups whose last read failed: counting their members would claim people missing. */
  private readonly unreadable = new Set<string>();

  /** `teamId` (SLACK_TEAM_ID) goes with every read: an org-wide install's token needs it, a workspace's ignores it. */
  constructor(
    private readonly client: WebClient,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
    private readonly teamId?: string | undefined,
  ) {}

  private readGroup(group: string): Promise<{ users?: string[] | undefined }> {
    return this.client.usergroups.users.list({ usergroup: group, ...(this.teamId ? { team_id: this.teamId } : {}) });
  }

  /**
   * Whether `list` allows `userId`. With `fresh`, every group is read from Slack now (refreshing
   * the cache) and a group that cannot be read rejects, so that the caller can tell "no" from
   * "could not check"; without it, an unreadable group grants nothing.
   */
  async allows(list: AccessList, userId: string, options: { fresh?: boolean } = {}): Promise<boolean> {
    if (list.everyone || list.users.has(userId)) return true;
    for (const group of list.groups) {
      const members = options.fresh ? await this.freshGroupMembers(group) : await this.groupMembers(group);
      if (members.has(userId)) return true;
    }
    return false;
  }

  /** Everyone a list names: its users and its groups' members (an unreadable group adds no one); `everyone` for `*`. */
  async everyoneIn(list: AccessList): Promise<{ everyone: boolean; users: Set<string> }> {
    const users = new Set(list.users);
    for (const group of list.groups) for (const userId of await this.groupMembers(group)) users.add(userId);
    return { everyone: list.everyone, users };
  }

  /**
   * How many people other than `besides` the list allows, its groups' members as cached; undefined
   * for `*` or when a group could not be read (nobody is said missing on a failed read).
   */
  async countBesides(list: AccessList, besides: string): Promise<number | undefined> {
    if (list.everyone) return undefined;
    const { users } = await this.everyoneIn(list);
    if ([...list.groups].some((group) => this.unreadable.has(group))) return undefined;
    users.delete(besides);
    return users.size;
  }

  private freshGroupMembers(group: string): Promise<ReadonlySet<string>> {
    const shared = this.freshReads.get(group);
    if (shared) return shared;
    const answered = this.freshAnswers.get(group);
    const now = this.clock.now().getTime();
    // A clock set back never stretches the window.
    if (answered && now >= answered.at && now - answered.at < FRESH_READ_REUSE_MS) return Promise.resolve(answered.members);
    const members = this.readGroup(group)
      .then((answer) => {
        const users = new Set(answer.users ?? []);
        this.members.set(group, users);
        // Counted from when it was asked: the answer is no older than that.
        this.freshAnswers.set(group, { members: users, at: now });
        this.unreadable.delete(group);
        return users;
      })
      .finally(() => this.freshReads.delete(group));
    this.freshReads.set(group, members);
    return members;
  }

  private async groupMembers(group: string): Promise<ReadonlySet<string>> {
    const cached = this.members.get<ReadonlySet<string>>(group);
    if (cached) return cached;
    let pending = this.inFlight.get(group);
    if (!pending) {
      pending = this.readGroup(group)
        .then((answer) => {
          const users = new Set(answer.users ?? []);
          this.members.set(group, users);
          this.unreadable.delete(group);
          return users;
        })
        .catch((error: unknown) => {
          this.unreadable.add(group);
          // Failing closed: an unreadable group grants nothing, and is not cached so it is retried.
          this.logger.warn({ err: error, group }, 'could not read user group members');
          return new Set<string>();
        })
        .finally(() => this.inFlight.delete(group));
      this.inFlight.set(group, pending);
    }
    return pending;
  }

  close(): void {
    this.members.close();
  }
}
