/** The `/fleet help` reply: what the bot can do, with examples. */
import type { KnownBlock } from '@slack/types';
import { escapeMrkdwn } from '../mrkdwn.js';
import { footer, type Reply, type Surface } from './common.js';

export interface HelpEntry {
  usage: string;
  description: string;
}

export const ACCOUNT_HELP: HelpEntry[] = [
  { usage: '/fleet balance', description: 'The fleet account balance in every currency, with a Refresh button.' },
  { usage: '/fleet transactions [page] [size]', description: 'Transactions, newest first, 10 per page (up to 25). Alias `/fleet tx`. Example: `/fleet tx 2 25`.' },
  { usage: '/fleet help', description: 'This list.' },
];

export function buildHelpMessage(surface: Surface, entries: HelpEntry[], unknown?: string): Reply {
  const intro = unknown
    ? `I don't know \`${escapeMrkdwn(unknown)}\`. Here is what I can do:`
    : 'Here is what I can do:';
  const lines = entries.map((entry) => `• \`${entry.usage}\` — ${entry.description}`).join('\n');
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: intro } },
    { type: 'section', text: { type: 'mrkdwn', text: lines } },
    footer(surface, 'Replies with account data are visible only to you until you press *Share in channel*.'),
  ];
  return { text: `${intro}\n${lines}`, blocks };
}
