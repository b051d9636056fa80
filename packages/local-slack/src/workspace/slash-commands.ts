/** How Slack's client refuses a slash command no app in the workspace declares. */
/** What Slack's client answers to a slash command that no app in the workspace declares. */
export class UnknownSlashCommandError extends Error {
  constructor(readonly command: string) {
    super(`${command} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`);
    this.name = 'UnknownSlashCommandError';
  }
}
