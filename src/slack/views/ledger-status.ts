/** The `/fleet ledger` reply: how much of the transaction history the app holds, and since when it is current. */
import type { KnownBlock } from '@slack/types';
import { textsFor } from '../../i18n/index.js';
import type { LedgerStatus } from '../../ledger/types.js';
import type { Reply } from './notice.js';
import { escapeWithin, footer, sandboxMarked, type Surface } from './text.js';
import { slackDate } from './dates.js';

const TIME = '{time}';

/** `status` undefined: the ledger is not turned on. */
export function buildLedgerStatusMessage(surface: Surface, status: LedgerStatus | undefined, timeZone: string): Reply {
  const t = textsFor(surface.locale);
  const title = t('ledger.title');
  const lines: string[] = [];
  if (!status) {
    lines.push(t('ledger.off'));
  } else {
    lines.push(ledgerHeadline(surface, status));
    lines.push(status.lastPollAt ? t('ledger.lastPoll', { time: slackDate(status.lastPollAt, undefined, surface) }) : t('ledger.notPolled'));
    lines.push(t('ledger.timeZone', { zone: escapeWithin(timeZone, 60, { oneLine: true }) }));
  }
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: title } },
    { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') } },
  ];
  if (surface.sandbox) blocks.push(footer(surface));
  return { text: `${sandboxMarked(surface, title)}: ${lines[0] ?? ''}`, blocks };
}

/** `History: complete, 40,000 transactions; up to date since 09:12.`: how much of the history is held. */
export function ledgerHeadline(surface: Surface, status: LedgerStatus): string {
  const t = textsFor(surface.locale);
  if (status.historyComplete) {
    return status.upToDateSince
      ? t('ledger.complete', { count: status.loaded, time: slackDate(status.upToDateSince, TIME, surface) })
      : t('ledger.completeNotPolled', { count: status.loaded });
  }
  if (status.estimatedTotal !== undefined && status.estimatedTotal >= status.loaded) {
    return t('ledger.loading', { count: status.loaded, total: status.estimatedTotal });
  }
  return t('ledger.loadingUnknown', { count: status.loaded });
}
