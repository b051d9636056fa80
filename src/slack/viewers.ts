/** Account data is for viewers only: the check every balance, transactions and feed reply makes first. */
import type { RespondFn } from '@slack/bolt';
import type { SlackContext } from './context.js';
import { notice } from './views/common.js';

export const NO_ACCESS_MESSAGE =
  ":lock: You don't have access to the fleet account's data. Ask your Slack admin to add you to the bot's viewers (FLEET_VIEWERS).";

/** Checks the viewer list; tells the person politely when they may not look. */
export async function ensureViewer(ctx: SlackContext, userId: string, respond: RespondFn): Promise<boolean> {
  if (await ctx.access.allows(ctx.accessLists.viewers, userId)) return true;
  ctx.logger.info({ userId }, 'refused account data to a non-viewer');
  await respond({ response_type: 'ephemeral', replace_original: false, ...notice(ctx.surface, NO_ACCESS_MESSAGE) });
  return false;
}
