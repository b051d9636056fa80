/**
 * The `/fleet` subcommands: each one a `Subcommand` with its name, aliases and help, held in one
 * registry that finds them by the word typed and builds the help list in their order.
 */
import type { RespondFn, SlashCommand } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Texts } from '../i18n/index.js';
import type { HelpEntry } from './views/help.js';

/** A `/fleet <name> …` handler, called after the command was acknowledged. */
export interface Subcommand {
  /** The word after `/fleet`, in lower case. */
  name: string;
  /** Other words for it, e.g. `tx` for `transactions`. */
  aliases?: readonly string[];
  /** Its lines in `/fleet help`, in the reader's language. */
  help(t: Texts): HelpEntry[];
  run(input: { command: SlashCommand; args: string[]; respond: RespondFn; client: WebClient }): Promise<void>;
}

export class SubcommandRegistry {
  // A Map, not an object: `/fleet constructor` or `/fleet __proto__` must not find Object.prototype's members.
  private readonly byWord = new Map<string, Subcommand>();

  constructor(private readonly subcommands: readonly Subcommand[]) {
    for (const subcommand of subcommands) {
      for (const word of [subcommand.name, ...(subcommand.aliases ?? [])]) {
        if (this.byWord.has(word)) throw new Error(`Two /fleet subcommands answer to "${word}"`);
        this.byWord.set(word, subcommand);
      }
    }
  }

  /** The subcommand a word names, by its name or an alias; `word` is already in lower case. */
  find(word: string): Subcommand | undefined {
    return this.byWord.get(word);
  }

  /** Every subcommand's help, in the order they were registered. */
  help(t: Texts): HelpEntry[] {
    return this.subcommands.flatMap((subcommand) => subcommand.help(t));
  }
}
