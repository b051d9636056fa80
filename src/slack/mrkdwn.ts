/** Safe mrkdwn: escaping of text we did not write, and Slack's localised date tokens. */

/** Escapes `&`, `<`, `>` so that text from the API or a person cannot ping, link or format as us. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Plain-text fields (`plain_text`) need no escaping, but must stay within Slack's length limits. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Escapes and truncates in one step, keeping entities whole. */
export function escapeAndTruncate(text: string, max: number): string {
  return escapeMrkdwn(truncate(text, max));
}

/**
 * `<!date^…>` shows each reader the time in their own time zone; the fallback after `|` is UTC,
 * for clients that cannot render the token (notifications, old clients).
 */
export function slackDate(date: Date | string, format = '{date_short_pretty} {time_secs}'): string {
  const when = typeof date === 'string' ? new Date(date) : date;
  if (Number.isNaN(when.getTime())) return escapeMrkdwn(String(date));
  const seconds = Math.floor(when.getTime() / 1000);
  const fallback = `${when.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return `<!date^${seconds}^${format}|${fallback}>`;
}

/** A Slack user mention; ids are validated so that a forged id cannot inject markup. */
export function mentionUser(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

/** A channel mention, validated like `mentionUser`. */
export function mentionChannel(channelId: string): string {
  return /^[CGD][A-Z0-9]+$/.test(channelId) ? `<#${channelId}>` : escapeMrkdwn(channelId);
}
