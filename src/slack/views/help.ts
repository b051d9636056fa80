/** The `/fleet help` reply: what the bot can do, with examples, from each subcommand's own help. */
import type { KnownBlock } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import type { Reply } from './notice.js';
import { codeSpan, cutMrkdwn, footer, type Surface } from './text.js';

export interface HelpEntry {
  usage: string;
  description: string;
}

// What a person typed is quoted back; 900 `<` would otherwise make a 3,600-character section.
const UNKNOWN_MAX = 60;
const SECTION_MAX = 3000;

export function buildHelpMessage(surface: Surface, entries: HelpEntry[], unknown?: string): Reply {
  const t = textsFor(surface.locale);
  const intro = unknown ? t('help.unknown', { word: codeSpan(unknown, UNKNOWN_MAX) }) : t('help.intro');
  const lines = entries.map((entry) => `• \`${entry.usage}\` — ${entry.description}`);
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: intro } },
    ...sections(lines).map((text): KnownBlock => ({ type: 'section', text: { type: 'mrkdwn', text } })),
    footer(surface, t('help.footer')),
  ];
  return { text: `${intro}\n${lines.join('\n')}`, blocks };
}

/** The entries in as few sections as Slack's 3,000 characters each allow (French help is longer). */
function sections(lines: string[]): string[] {
  const texts: string[] = [];
  let current = '';
  for (const line of lines.map((entry) => cutMrkdwn(entry, SECTION_MAX))) {
    if (current && current.length + 1 + line.length > SECTION_MAX) {
      texts.push(current);
      current = line;
    } else {
      current = current ? `${current}\n${line}` : line;
    }
  }
  if (current) texts.push(current);
  return texts;
}
