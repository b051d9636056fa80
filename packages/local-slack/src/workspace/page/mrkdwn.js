// Slack mrkdwn to safe HTML, the way Slack's client shows it: *bold*, _italic_, ~strike~, `code`,
// ```blocks```, > quotes, <links|labels>, <@user> and <#channel> mentions, <!date^…> tokens, :emoji:.
// Everything from the text is HTML-escaped; only the tags added here are markup.

const EMOJI = {
  test_tube: '🧪',
  large_green_circle: '🟢',
  red_circle: '🔴',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  warning: '⚠️',
  hourglass_flowing_sand: '⏳',
  hourglass: '⌛',
  lock: '🔒',
  unlock: '🔓',
  fast_forward: '⏩',
  rewind: '⏪',
  moneybag: '💰',
  money_with_wings: '💸',
  bank: '🏦',
  iphone: '📱',
  arrows_counterclockwise: '🔄',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  information_source: 'ℹ️',
  bell: '🔔',
  chart_with_upwards_trend: '📈',
  chart_with_downwards_trend: '📉',
  receipt: '🧾',
  memo: '📝',
  clipboard: '📋',
  eyes: '👀',
  thumbsup: '👍',
  '+1': '👍',
  tada: '🎉',
  rotating_light: '🚨',
  zap: '⚡',
  calendar: '📅',
  clock3: '🕒',
  stopwatch: '⏱️',
  large_blue_circle: '🔵',
  large_yellow_circle: '🟡',
  white_circle: '⚪',
  black_circle: '⚫',
  heavy_minus_sign: '➖',
  heavy_plus_sign: '➕',
  arrow_right: '➡️',
  arrow_left: '⬅️',
  inbox_tray: '📥',
  outbox_tray: '📤',
  mag: '🔍',
  gear: '⚙️',
  wave: '👋',
  raised_hand: '✋',
  sos: '🆘',
  grey_question: '❔',
  question: '❓',
  heavy_multiplication_x: '✖️',
  leftwards_arrow_with_hook: '↩️',
  repeat: '🔁',
  satellite: '📡',
  link: '🔗',
  pencil2: '✏️',
  wastebasket: '🗑️',
  new: '🆕',
  busts_in_silhouette: '👥',
  bar_chart: '📊',
  incoming_envelope: '📨',
  alarm_clock: '⏰',
  construction: '🚧',
  medal: '🏅',
  octagonal_sign: '🛑',
  page_facing_up: '📄',
  pause_button: '⏸️',
  zzz: '💤',
};

export function escapeHtml(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Slack's own entities (&amp; &lt; &gt;) back to characters, before escaping for HTML. */
function decodeEntities(text) {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export function emojify(html) {
  return html.replace(/:([a-z0-9_+-]+):/g, (whole, name) => EMOJI[name] ?? whole);
}

/** Plain text objects: escaped, with emoji unless `emoji: false`. */
export function plainText(object) {
  const html = escapeHtml(object?.text ?? '');
  return object?.emoji === false ? html : emojify(html);
}

/** A text object of either kind to HTML. */
export function textObject(object, names) {
  if (!object) return '';
  return object.type === 'mrkdwn' ? mrkdwn(object.text ?? '', names, object.verbatim === true) : plainText(object);
}

const DATE_PARTS = {
  date_num: { year: 'numeric', month: '2-digit', day: '2-digit' },
  date: { year: 'numeric', month: 'long', day: 'numeric' },
  date_short: { year: 'numeric', month: 'short', day: 'numeric' },
  date_long: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
  date_pretty: { year: 'numeric', month: 'long', day: 'numeric' },
  date_short_pretty: { year: 'numeric', month: 'short', day: 'numeric' },
  date_long_pretty: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' },
  time: { hour: '2-digit', minute: '2-digit' },
  time_secs: { hour: '2-digit', minute: '2-digit', second: '2-digit' },
};

/** Slack's client words "today" and "yesterday" in the reader's language. */
const RELATIVE_DAYS = { fr: ['Aujourd’hui', 'Hier'], en: ['Today', 'Yesterday'] };

function prettyDay(date, fallback, locale) {
  const [today, yesterday] = RELATIVE_DAYS[String(locale ?? 'en').slice(0, 2)] ?? RELATIVE_DAYS.en;
  const now = new Date();
  const day = (d) => d.toDateString();
  if (day(date) === day(now)) return today;
  if (day(date) === day(new Date(now.getTime() - 86_400_000))) return yesterday;
  return fallback;
}

/** `<!date^seconds^format|fallback>` in the reader's own time zone and language (their Slack locale), like Slack's client. */
function formatDate(seconds, format, locale) {
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return undefined;
  return format.replace(/\{(\w+)\}/g, (whole, token) => {
    const parts = DATE_PARTS[token];
    if (!parts) return whole;
    const text = date.toLocaleString(locale, parts);
    return token.endsWith('_pretty') ? prettyDay(date, text, locale) : text;
  });
}

/** One `<…>` sequence: a mention, a special command, a date or a link. */
function angle(inner, names) {
  const [target, label] = splitLabel(inner);
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return `<span class="mention">@${escapeHtml(label ?? names.users[id] ?? id)}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return `<span class="mention">#${escapeHtml(label ?? names.channels[id] ?? id)}</span>`;
  }
  if (target.startsWith('!date^')) {
    const [, seconds, format] = target.split('^');
    const shown = formatDate(seconds, format ?? '{date_short_pretty}', names.locale) ?? label ?? target;
    return `<time title="${escapeHtml(label ?? '')}">${escapeHtml(shown)}</time>`;
  }
  if (target.startsWith('!')) {
    const word = target.slice(1).split('^')[0];
    return `<span class="mention">@${escapeHtml(label ?? word)}</span>`;
  }
  if (/^(https?:|mailto:)/.test(target)) {
    return `<a href="${escapeHtml(target)}" target="_blank" rel="noopener noreferrer">${escapeHtml(label ?? target)}</a>`;
  }
  return escapeHtml(`<${inner}>`);
}

function splitLabel(inner) {
  const bar = inner.indexOf('|');
  if (bar < 0) return [decodeEntities(inner), undefined];
  return [decodeEntities(inner.slice(0, bar)), decodeEntities(inner.slice(bar + 1))];
}

/** Bold, italic and strike on text that is already HTML-escaped and has no tags of its own. */
function styles(html) {
  return html
    .replace(/(^|[\s(>\u0000])\*(?!\s)([^*\n]+?)\*(?=$|[\s).,:;!?<\u0000])/g, '$1<b>$2</b>')
    .replace(/(^|[\s(>\u0000])_(?!\s)([^_\n]+?)_(?=$|[\s).,:;!?<\u0000])/g, '$1<i>$2</i>')
    .replace(/(^|[\s(>\u0000])~(?!\s)([^~\n]+?)~(?=$|[\s).,:;!?<\u0000])/g, '$1<s>$2</s>');
}

/** Text outside code: links and mentions are set aside as placeholders while styles apply. */
function inline(text, names) {
  const kept = [];
  const keep = (html) => `\u0000${kept.push(html) - 1}\u0000`;
  let work = text.replace(/<([^<>\n]+)>/g, (whole, inner) => keep(angle(inner, names)));
  work = styles(emojify(escapeHtml(decodeEntities(work))));
  return work.replace(/\u0000(\d+)\u0000/g, (whole, index) => kept[Number(index)]);
}

function lines(text, names) {
  return text
    .split('\n')
    .map((line) => {
      const quote = /^(&gt;|>)\s?(.*)$/.exec(line);
      return quote ? `<blockquote>${inline(quote[2], names)}</blockquote>` : inline(line, names);
    })
    .join('<br>')
    .replace(/<\/blockquote><br>/g, '</blockquote>');
}

/**
 * mrkdwn to HTML; `names` maps ids to names for mentions: { users: {U…: name}, channels: {C…: name} },
 * and holds the reader's Slack locale (`locale`, e.g. `fr-FR`) for dates.
 */
export function mrkdwn(text, names = { users: {}, channels: {} }, verbatim = false) {
  if (verbatim) return escapeHtml(decodeEntities(text)).replace(/\n/g, '<br>');
  const parts = text.split(/(```[\s\S]*?```|`[^`\n]+`)/g);
  return parts
    .map((part, index) => {
      if (index % 2 === 0) return lines(part, names);
      if (part.startsWith('```')) return `<pre>${escapeHtml(decodeEntities(part.slice(3, -3).replace(/^\n/, '')))}</pre>`;
      return `<code>${escapeHtml(decodeEntities(part.slice(1, -1)))}</code>`;
    })
    .join('');
}
