/**
 * Characters that change how text reads without being seen: bidi controls (which reorder what
 * follows them), zero-width characters, control characters and broken surrogate halves. The
 * payout form refuses them in what people type; text from the Fleet API is shown with them
 * replaced by a visible marker, so that what approvers read is what is there.
 */

// U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F and U+061C marks.
const BIDI = '\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C';
// Zero-width space, non-joiner, joiner, word joiner, byte order mark; line and paragraph separators.
const ZERO_WIDTH = '\u200B-\u200D\u2060\uFEFF\u2028\u2029';
// C0 and C1 controls and DEL; line feed and tab are handled apart.
const CONTROL = '\u0000-\u0008\u000B-\u001F\u007F-\u009F';
const LONE_SURROGATE = '[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]';

const INVISIBLE = new RegExp(`[${BIDI}${ZERO_WIDTH}]`);
const CONTROL_CHARACTER = new RegExp(`[${CONTROL}]`);
const LINE_BREAK_OR_TAB = /[\n\t]/;
const BROKEN = new RegExp(LONE_SURROGATE);
const ANY_HIDDEN = new RegExp(`(?:[${BIDI}${ZERO_WIDTH}${CONTROL}]|${LONE_SURROGATE})+`, 'g');

/** What replaces a run of hidden characters in text we show but did not write: U+FFFD, `�`. */
const HIDDEN_MARKER = '\uFFFD';

export type HiddenCharacterKind = 'invisible' | 'control' | 'broken';

/** The first kind of hidden character in `text`, if any; `lineBreaks` allows `\n` (a multi-line note). */
export function findHiddenCharacters(text: string, options: { lineBreaks?: boolean } = {}): HiddenCharacterKind | undefined {
  if (INVISIBLE.test(text)) return 'invisible';
  if (CONTROL_CHARACTER.test(text)) return 'control';
  if (LINE_BREAK_OR_TAB.test(options.lineBreaks ? text.replace(/\n/g, '') : text)) return 'control';
  if (BROKEN.test(text)) return 'broken';
  return undefined;
}

/** Replaces each run of hidden characters with `HIDDEN_MARKER`; keeps line breaks and tabs. */
export function neutraliseHiddenCharacters(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(ANY_HIDDEN, HIDDEN_MARKER);
}
