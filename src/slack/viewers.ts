/** Account data is for viewers only: the check each balance and transactions button makes first (the `/fleet` subcommands are checked by their registry). */
import type { RespondFn } from '@slack/bolt';
import { textsFor, translate } from '../i18n/index.js';
import type { SlackContext } from './context.js';
import { surfaceFor } from './locales.js';
import { notice } from './views/notice.js';

/** The refusal in English, as the demo and tests look for it; a person gets it in their language. */
export const NO_ACCESS_MESSAGE = translate('en', 'access.noViewer');

/** Checks the viewer list; tells the person politely, in their language, when they may not look and whom to ask. */
export async function ensureViewer(ctx: SlackContext, userId: string, respond: RespondFn): Promise<boolean> {
  if (await ctx.access.allows(ctx.accessLists.viewers, userId)) return true;
  ctx.logger.info({ userId }, 'refused account data to a non-viewer');
  const surface = await surfaceFor(ctx, userId);
  await respond({ response_type: 'ephemeral', replace_original: false, ...notice(surface, textsFor(surface.locale)('access.noViewer')) });
  return false;
}
