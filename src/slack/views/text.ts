/**
 * The text helpers every view uses, so that a limit or an escape rule changes in one place: escaping
 * and cutting text we did not write (mrkdwn and plain text), inline code, mentions, durations, and
 * the SANDBOX mark and footer. Dates and times are written by `dates.ts`.
 */
import type { ContextBlock, PlainTextElement } from '@slack/types';
import { neutraliseHiddenCharacters } from '../../core/hidden-text.js';
import { textsFor, type Locale } from '../../i18n/index.js';

/** Where a message is shown: whether its data is the sandbox's, and the language of its readers. */
export interface Surface {
  /** True when the app runs against the embedded sandbox: every reply then says SANDBOX. */
  sandbox: boolean;
  /** The person's language for a reply, DM or modal; CHANNEL_LOCALE for a channel message. */
  locale: Locale;
  /** The team's zone (TEAM_TIMEZONE), whose clock dates fall back to (`dates.ts`); UTC when unset. */
  timeZone?: string | undefined;
}

/**
 * Escapes `&`, `<`, `>` so that text from the API or a person cannot ping, link or format as us,
 * and shows hidden characters (bidi overrides, zero-width, controls) as a visible marker.
 */
export function escapeMrkdwn(text: string): string {
  return neutraliseHiddenCharacters(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Cuts `text` to `max` UTF-16 units with an ellipsis, never between the halves of a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - 1));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Plain text (`plain_text`) we did not write: hidden characters shown as a marker, cut to `max`. */
export function plainWithin(text: string, max: number): string {
  return truncate(neutraliseHiddenCharacters(text), max);
}

/** A `plain_text` object; with `max`, the text is treated as ours to neutralise and cut (`plainWithin`). */
export function plainText(text: string, max?: number): PlainTextElement {
  return { type: 'plain_text', text: max === undefined ? text : plainWithin(text, max), emoji: true };
}

/** What a cut must keep whole: an entity (`&amp;`) or a token in angle brackets (`<@U…>`, `<#C…>`, `<!date…>`, a link). */
const MRKDWN_TOKEN = /<[^<>]*>|&[#\w]+;/g;

/**
 * The one cutter of mrkdwn (already escaped): at most `max` characters with an ellipsis, never inside
 * an entity or a token (a token the cut would split is dropped whole) nor between surrogate halves.
 */
export function cutMrkdwn(mrkdwn: string, max: number): string {
  if (mrkdwn.length <= max) return mrkdwn;
  if (max < 1) return '';
  let end = max - 1;
  for (const token of mrkdwn.matchAll(MRKDWN_TOKEN)) {
    if (token.index >= end) break;
    if (token.index + token[0].length > end) {
      end = token.index;
      break;
    }
  }
  if (/[\uD800-\uDBFF]/.test(mrkdwn.charAt(end - 1))) end -= 1;
  return `${mrkdwn.slice(0, end)}…`;
}

/**
 * The one way to put text from the API or a person into mrkdwn: hidden characters neutralised,
 * escaped, THEN cut, so that `max` holds after escaping however many `<` or `&` the text has.
 * `oneLine` turns line breaks and tabs into spaces (references, ids, types).
 */
export function escapeWithin(text: string, max: number, options: { oneLine?: boolean } = {}): string {
  const flat = options.oneLine ? text.replace(/[\r\n\t]+/g, ' ') : text;
  return cutMrkdwn(escapeMrkdwn(flat), max);
}

/** A reference or id as inline code, on one line, cut to `max` characters inside the backticks. */
export function codeSpan(text: string, max: number): string {
  return `\`${escapeWithin(text.replace(/`/g, "'"), max, { oneLine: true })}\``;
}

/** A Slack user mention; ids are validated so that a forged id cannot inject markup. */
export function mentionUser(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

/** A channel mention, validated like `mentionUser`. */
export function mentionChannel(channelId: string): string {
  return /^[CGD][A-Z0-9]+$/.test(channelId) ? `<#${channelId}>` : escapeMrkdwn(channelId);
}

/** `3 min`, `2 h 5 min`, `45 s`, `1 d 4 h` (`1 j 4 h` in French): durations a person reads at a glance. */
export function formatDuration(ms: number, locale: Locale): string {
  const t = textsFor(locale);
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 90) return t('duration.seconds', { seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return t('duration.minutes', { minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return t('duration.hours', { hours, minutes: minutes % 60 });
  return t('duration.days', { days: Math.floor(hours / 24), hours: hours % 24 });
}

/** `title (SANDBOX)` on the sandbox: the start of a message's fallback text, which notifications show. */
export function sandboxMarked(surface: Surface, title: string): string {
  return surface.sandbox ? textsFor(surface.locale)('common.sandboxSuffix', { title }) : title;
}

/** A context line, with the sandbox label first when it applies. */
export function footer(surface: Surface, ...parts: string[]): ContextBlock {
  const elements = [...(surface.sandbox ? [textsFor(surface.locale)('common.sandboxLabel')] : []), ...parts]
    .slice(0, 10)
    .map((text) => ({ type: 'mrkdwn' as const, text: cutMrkdwn(text, 3000) }));
  return { type: 'context', elements };
}

/** The sandbox label as a footer on the sandbox, nothing elsewhere: `blocks.push(...sandboxFooter(surface))`. */
export function sandboxFooter(surface: Surface): ContextBlock[] {
  return surface.sandbox ? [footer(surface)] : [];
}
