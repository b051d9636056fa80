/**
 * The App Home tab: published when the person opens it (`app_home_opened`, Home tab only) and when
 * they press Refresh. Its other buttons belong to the flows they start (payout request, transactions,
 * export, approval), which register them.
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { z } from 'zod';
import type { SlackContext } from '../context.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { HOME } from '../ids.js';

const homeSchema = z.object({ hash: z.string().min(1).max(200) });

export function registerHomeListeners(router: ListenerRouter, ctx: SlackContext): void {
  const { home } = ctx;
  if (!home) return;
  router.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    // Slack sends the home the person sees, if any: its hash is what the next publish must replace.
    const shown = homeSchema.safeParse(event.view);
    await home.opened(event.user, shown.success ? shown.data.hash : undefined);
  });
  router.action<BlockAction<ButtonAction>>(HOME.refresh, async ({ ack, body }) => {
    await ack();
    await home.refresh(body.user.id);
  });
}
