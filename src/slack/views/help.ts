/** The `/fleet help` reply: what the bot can do, with examples, from each subcommand's own help. */
import type { KnownBlock } from '@slack/types';
import type { Reply } from './common.js';
import { codeSpan, footer, type Surface } from './text.js';

export interface HelpEntry {
  usage: string;
  description: string;
}

// What a person typed is quoted back; 900 `<` would otherwise make a 3,600-character section.
const UNKNOWN_MAX = 60;

export function buildHelpMessage(surface: Surface, entries: HelpEntry[], unknown?: string): Reply {
  const intro = unknown
    ? `I don't know ${codeSpan(unknown, UNKNOWN_MAX)}. Here is what I can do:`
    : 'Here is what I can do:';
  const lines = entries.map((entry) => `• \`${entry.usage}\` — ${entry.description}`).join('\n');
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: intro } },
    { type: 'section', text: { type: 'mrkdwn', text: lines } },
    footer(surface, 'Replies with account data are visible only to you until you press *Share in channel*.'),
  ];
  return { text: `${intro}\n${lines}`, blocks };
}
