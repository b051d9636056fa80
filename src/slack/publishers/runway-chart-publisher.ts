/**
 * The runway chart in the daily digest's thread: a follow-up of the digest scheduler that draws the
 * runway the digest shows, in the channel's language, and shares it as a reply to the digest. The
 * scheduler retries it when it fails; the digest itself is never posted again.
 */
import type { WebClient } from '@slack/web-api';
import type { DigestFollowUp } from '../../digest/index.js';
import { textsFor } from '../../i18n/index.js';
import type { ChartRenderer } from '../../runway/chart/renderer.js';
import { sharePng } from '../files/png-share.js';
import type { Surface } from '../views/text.js';

export function runwayChartFollowUp(client: WebClient, charts: ChartRenderer, surface: Surface): DigestFollowUp {
  return {
    name: 'runway chart',
    async afterPosted({ channelId, day, ts, digest }) {
      if (!digest.runway?.known) return;
      const chart = await charts.render(digest.runway, surface.locale);
      if (!chart) return;
      const t = textsFor(surface.locale);
      await sharePng(
        client,
        channelId,
        { filename: `runway-${day}.png`, title: t('runway.chart.title'), comment: t('runway.chart.digestComment'), png: chart.png },
        ts,
      );
    },
  };
}
