/** Small Block Kit pieces shared by several surfaces. */
import type { ContextBlock, KnownBlock } from '@slack/types';
import { cutMrkdwn } from '../mrkdwn.js';

/** What every reply must say about where its data came from. */
export interface Surface {
  /** True when the app runs against the embedded sandbox: every reply then says SANDBOX. */
  sandbox: boolean;
}

export const SANDBOX_LABEL = ':test_tube: *SANDBOX* — demo data, no real money';

/** A context line, with the sandbox label first when it applies. */
export function footer(surface: Surface, ...parts: string[]): ContextBlock {
  const elements = [...(surface.sandbox ? [SANDBOX_LABEL] : []), ...parts]
    .slice(0, 10)
    .map((text) => ({ type: 'mrkdwn' as const, text: cutMrkdwn(text, 3000) }));
  return { type: 'context', elements };
}

/** A message made of plain mrkdwn text, for notices and refusals. */
export interface Reply {
  text: string;
  blocks: KnownBlock[];
}

/** `text` is mrkdwn the app composed (quoted text already escaped); cut to a section's 3,000 characters. */
export function notice(surface: Surface, text: string): Reply {
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } }];
  if (surface.sandbox) blocks.push(footer(surface));
  return { text, blocks };
}
