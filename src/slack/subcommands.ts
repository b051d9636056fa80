/**
 * The `/fleet` subcommands: each one a `Subcommand` with its name, aliases, names in other
 * languages, audience and help, held in one registry that finds them by the word typed, lets only
 * their audience run them, and builds the help list in their order, in the reader's language, with
 * only what the reader may use; and the reading of the text after `/fleet` into the subcommand's
 * word and its arguments.
 */
import type { RespondFn, SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Locale, Texts } from '../i18n/index.js';
import type { HelpEntry } from './views/help.js';
import type { Surface } from './views/text.js';

/**
 * Who may use a subcommand: everyone, FLEET_VIEWERS, FLEET_REQUESTERS, or anyone in FLEET_REQUESTERS
 * or FLEET_APPROVERS. The lists are separate, not a ladder: an approver is not a viewer unless
 * FLEET_VIEWERS names them too. The registry refuses anyone else before the subcommand runs, and
 * help lists a subcommand only to its audience; what moves money is checked again by the payout
 * service, on the server, whatever the registry let through.
 */
export type Audience = 'everyone' | 'viewers' | 'requesters' | 'requesters-and-approvers';

/** A `/fleet <name> …` handler, called after the command was acknowledged. */
export interface Subcommand {
  /** The word after `/fleet`, in lower case. */
  name: string;
  /** Other words for it, e.g. `tx` for `transactions`. */
  aliases?: readonly string[];
  /** Its name in another language (`{ fr: 'solde' }`): typed like an alias, and shown in help to readers of it. */
  localNames?: Partial<Record<Locale, string>>;
  /** Who may run it and whom help lists it to; everyone when unset. */
  audience?: Audience;
  /** What someone outside the audience is told instead of the audience's usual refusal. */
  refusal?: (t: Texts) => string;
  /**
   * Set when the subcommand refuses outsiders itself rather than the registry before it runs: only
   * where an answer cannot wait for the lists (a modal's trigger id), and help still uses `audience`.
   */
  checksAudienceItself?: boolean;
  /** Its lines in `/fleet help`, in the reader's language. */
  help(t: Texts): HelpEntry[];
  /** `readerSurface` is the surface of the person who typed the command, resolved once per request. */
  run(input: { command: SlashCommand; args: string[]; respond: RespondFn; client: WebClient; readerSurface: () => Promise<Surface> }): Promise<void>;
}

export class SubcommandRegistry {
  // A Map, not an object: `/fleet constructor` or `/fleet __proto__` must not find Object.prototype's members.
  private readonly byWord = new Map<string, Subcommand>();

  constructor(private readonly subcommands: readonly Subcommand[]) {
    for (const subcommand of subcommands) {
      for (const word of new Set([subcommand.name, ...(subcommand.aliases ?? []), ...Object.values(subcommand.localNames ?? {})])) {
        if (this.byWord.has(word)) throw new Error(`Two /fleet subcommands answer to "${word}"`);
        this.byWord.set(word, subcommand);
      }
    }
  }

  /** The subcommand a word names, by its name or an alias; `word` is already in lower case. */
  find(word: string): Subcommand | undefined {
    return this.byWord.get(word);
  }

  /**
   * The help of every subcommand `reader` may use, in the order they were registered, each under
   * its name in `locale` (`/fleet solde` for a French reader).
   */
  help(t: Texts, locale: Locale, reader: ReadonlySet<Audience>): HelpEntry[] {
    return this.subcommands
      .filter((subcommand) => reader.has(subcommand.audience ?? 'everyone'))
      .flatMap((subcommand) => subcommand.help(t).map((entry) => ({ ...entry, usage: usageIn(subcommand, locale, entry.usage) })));
  }
}

/** `/fleet balance [x]` → `/fleet solde [x]` for a French reader; a usage already in their words stays. */
function usageIn(subcommand: Subcommand, locale: Locale, usage: string): string {
  const localName = subcommand.localNames?.[locale];
  const english = `/fleet ${subcommand.name}`;
  if (!localName || !(usage === english || usage.startsWith(`${english} `))) return usage;
  return `/fleet ${localName}${usage.slice(english.length)}`;
}

/** The access lists, asked about one person. */
export interface Roles {
  view(userId: string): Promise<boolean>;
  request(userId: string): Promise<boolean>;
  approve(userId: string): Promise<boolean>;
}

/** Whether a person is in `audience`; only the lists it names are asked. */
export async function isIn(audience: Audience, userId: string, may: Roles): Promise<boolean> {
  switch (audience) {
    case 'everyone':
      return true;
    case 'viewers':
      return may.view(userId);
    case 'requesters':
      return may.request(userId);
    case 'requesters-and-approvers':
      return (await may.request(userId)) || may.approve(userId);
  }
}

/** The audiences a person belongs to, from the access lists (`everyone` always). */
export async function audiencesOf(userId: string, may: Roles): Promise<ReadonlySet<Audience>> {
  const [viewer, requester, approver] = await Promise.all([may.view(userId), may.request(userId), may.approve(userId)]);
  const audiences = new Set<Audience>(['everyone']);
  if (viewer) audiences.add('viewers');
  if (requester) audiences.add('requesters');
  if (requester || approver) audiences.add('requesters-and-approvers');
  return audiences;
}

/** The first word after `/fleet` in lower case (`help` when there is none) and the words after it as typed. */
export function splitFleetCommand(text: string): { word: string; args: string[] } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  return { word: words[0]?.toLowerCase() ?? 'help', args: words.slice(1) };
}
