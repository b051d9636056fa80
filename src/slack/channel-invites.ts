/**
 * The channels where nobody has invited the bot yet: Slack refuses its posts there with
 * `not_in_channel` (the app has no `chat:write.public`). Each publisher posts through `post`, which
 * remembers the refusal and forgets it at the first post that works there, once someone typed
 * `/invite`. `/fleet feed`, the operators' /readyz and the person whose request waits on it name them.
 */
export type ChannelUse = 'approvals' | 'feed' | 'digest' | 'alerts';

export interface MissingInvite {
  channel: string;
  /** What the app posts there, in the order first refused. */
  uses: ChannelUse[];
  /** When Slack first refused a post there. */
  since: Date;
}

/** Slack's code for a post where the bot is not a member (chat.postMessage, files shared into a channel). */
export function isNotInChannel(error: unknown): boolean {
  return (error as { data?: { error?: unknown } } | undefined)?.data?.error === 'not_in_channel';
}

export class ChannelInvites {
  private readonly missing = new Map<string, MissingInvite>();
  private bot: string | undefined;

  /** `whoAmI` asks Slack for the bot's user id (auth.test), once, the first time a message names it. */
  constructor(
    private readonly whoAmI: () => Promise<string | undefined> = async () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The bot's user id, to mention it as Slack shows it (its display name); undefined when Slack did not say. */
  async botUserId(): Promise<string | undefined> {
    this.bot ??= await this.whoAmI().catch(() => undefined);
    return this.bot;
  }

  /** Runs one post to `channel`; its outcome says whether the bot is in the channel. The error is rethrown. */
  async post<T>(channel: string, use: ChannelUse, send: () => Promise<T>): Promise<T> {
    try {
      const answer = await send();
      this.missing.delete(channel);
      return answer;
    } catch (error) {
      if (isNotInChannel(error)) this.refused(channel, use);
      throw error;
    }
  }

  refused(channel: string, use: ChannelUse): void {
    const known = this.missing.get(channel);
    if (!known) this.missing.set(channel, { channel, uses: [use], since: this.now() });
    else if (!known.uses.includes(use)) known.uses.push(use);
  }

  isMissing(channel: string): boolean {
    return this.missing.has(channel);
  }

  list(): MissingInvite[] {
    return [...this.missing.values()].map((invite) => ({ ...invite, uses: [...invite.uses] }));
  }
}
