/**
 * Who is in each conversation, as Slack sees it: every person is in the workspace's channels unless
 * the channel lists its members, the bot only where someone invited it (`/invite @app`), and a DM
 * holds its person and the bot. `chat.postMessage` and file shares need the bot in the channel;
 * `chat.postEphemeral` needs the person in it.
 */
export class ChannelMembership {
  private readonly members = new Map<string, Set<string>>();

  has(channelId: string, userId: string): boolean {
    return this.members.get(channelId)?.has(userId) ?? false;
  }

  add(channelId: string, userId: string): void {
    const members = this.members.get(channelId) ?? new Set<string>();
    members.add(userId);
    this.members.set(channelId, members);
  }

  remove(channelId: string, userId: string): void {
    this.members.get(channelId)?.delete(userId);
  }

  /** Takes someone out of every channel (an uninstalled app's bot); DMs (`D…`) keep them. */
  leaveChannels(userId: string): void {
    for (const [channelId, members] of this.members) if (!channelId.startsWith('D')) members.delete(userId);
  }

  list(channelId: string): string[] {
    return [...(this.members.get(channelId) ?? [])];
  }
}
