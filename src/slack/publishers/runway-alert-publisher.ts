/**
 * The runway alert's poster over Slack's Web API: the alert in the channel's language, posted with
 * chat.postMessage to ALERT_CHANNEL_ID. A failure comes back to the alert check, which gives the
 * crossing back so that the next check posts it.
 */
import type { WebClient } from '@slack/web-api';
import type { RunwayAlert } from '../../runway/index.js';
import { buildRunwayAlertMessage } from '../views/runway.js';
import type { ChannelInvites } from '../channel-invites.js';
import type { Surface } from '../views/text.js';

export function createRunwayAlertPoster(
  client: WebClient,
  channelId: string,
  surface: Surface,
  invites?: ChannelInvites,
): (alert: RunwayAlert) => Promise<void> {
  return async (alert) => {
    const message = buildRunwayAlertMessage(surface, alert);
    const send = () => client.chat.postMessage({ channel: channelId, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false });
    await (invites ? invites.post(channelId, 'alerts', send) : send());
  };
}
