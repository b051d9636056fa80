/**
 * Which profile reads a file: the one named, else the first saved profile (newest first) whose
 * header row holds every column it names by header text, else the built-in one. A profile without
 * a header row (columns by position) is never picked by the file: only by its name.
 */
import { parse } from 'csv-parse/sync';
import { decodeAs } from './profile-reader.js';
import { columnsOf, defaultProfile, type ImportProfile } from './profile.js';

export type ProfilePick =
  | { ok: true; profile: ImportProfile; by: 'name' | 'header' | 'default' }
  /** No saved profile has that name: the names there are, to offer instead. */
  | { ok: false; unknown: string; names: string[] };

/** The text looked at for a header row: a statement's title lines and its header sit well within it. */
const HEAD_CHARS = 64 * 1024;

const words = (text: string) => text.trim().toLowerCase().normalize('NFC');

/** The file's header row as `profile` reads it (after its lines to skip, in its encoding and delimiter), or undefined. */
export function headerRowOf(content: Uint8Array | string, profile: Pick<ImportProfile, 'encoding' | 'delimiter' | 'skipAbove'>): string[] | undefined {
  const head = typeof content === 'string' ? content.slice(0, HEAD_CHARS) : decodeAs(content.subarray(0, HEAD_CHARS), profile.encoding);
  if (head === undefined) return undefined;
  // The head may end inside a line: only whole lines are read.
  const whole = head.length < HEAD_CHARS ? head : head.slice(0, Math.max(0, head.lastIndexOf('\n')));
  try {
    const rows: string[][] = parse(whole, { bom: true, delimiter: profile.delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true });
    return rows.filter((cells) => cells.some((cell) => cell.trim() !== ''))[profile.skipAbove];
  } catch {
    return undefined;
  }
}

/** Whether `profile` names its columns by header text, and the file's header row holds each of them. */
export function headerFits(content: Uint8Array | string, profile: ImportProfile): boolean {
  if (!profile.header) return false;
  const named = columnsOf(profile).filter((column) => typeof column !== 'number');
  if (named.length === 0) return false;
  const header = headerRowOf(content, profile);
  if (!header) return false;
  const present = new Set(header.map(words));
  return named.every((column) => (Array.isArray(column) ? column : [column]).some((name) => present.has(words(name))));
}

/**
 * Picks the profile for `content`: by `name` among `saved` (without case), else by the file's header
 * among `saved` in their order (newest first), else `defaultProfile(timeZone)`.
 */
export function pickProfile(content: Uint8Array | string, saved: readonly ImportProfile[], options: { name?: string; timeZone: string }): ProfilePick {
  if (options.name !== undefined) {
    const found = saved.find((profile) => words(profile.name) === words(options.name ?? ''));
    return found ? { ok: true, profile: found, by: 'name' } : { ok: false, unknown: options.name, names: saved.map((profile) => profile.name) };
  }
  const fitting = saved.find((profile) => headerFits(content, profile));
  return fitting ? { ok: true, profile: fitting, by: 'header' } : { ok: true, profile: defaultProfile(options.timeZone), by: 'default' };
}
