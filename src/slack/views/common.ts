/** The plain notice, a reply made of one piece of mrkdwn, shared by several surfaces. */
import type { KnownBlock } from '@slack/types';
import { cutMrkdwn, sandboxFooter, type Surface } from './text.js';

/** A message made of plain mrkdwn text, for notices and refusals. */
export interface Reply {
  text: string;
  blocks: KnownBlock[];
}

/** `text` is mrkdwn the app composed (quoted text already escaped); cut to a section's 3,000 characters. */
export function notice(surface: Surface, text: string): Reply {
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } }, ...sandboxFooter(surface)];
  return { text, blocks };
}
