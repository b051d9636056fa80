/**
 * Scheduled payouts over Slack: each change of an occurrence draws the scheduled request's approval
 * message again (where approvers see what is held and why, with Retry) and sends its requester a
 * DM in their language (a reminder before the time, held, missed with Send now and Skip, released,
 * skipped, cancelled). A failure is logged and changes nothing.
 */
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../core/logger.js';
import type { Occurrence, PayoutRequest, ScheduleEventName, ScheduleNotifier } from '../../payouts/index.js';
import type { PersonLocales } from '../locales.js';
import type { Surface } from '../views/text.js';
import { scheduleDirectMessage } from '../views/payout-schedule.js';

export interface SlackScheduleNotifierOptions {
  client: WebClient;
  surface: Surface;
  locales: PersonLocales;
  logger: Logger;
  timeZone: string;
  /** Draws a request's approval message again. */
  refresh: (request: PayoutRequest) => void;
}

export class SlackScheduleNotifier implements ScheduleNotifier {
  constructor(private readonly options: SlackScheduleNotifierOptions) {}

  async occurrence(request: PayoutRequest, occurrence: Occurrence, event: ScheduleEventName, userId?: string): Promise<void> {
    const { client, surface, locales, logger, timeZone } = this.options;
    if (event !== 'noticed') this.options.refresh(request);
    // The requester hears of what others did and of what the app did; not of their own Skip or Cancel.
    if ((event === 'skipped' || event === 'cancelled') && userId === request.requestedBy) return;
    try {
      const reader: Surface = { ...surface, locale: await locales.forPerson(request.requestedBy) };
      const message = scheduleDirectMessage(reader, request, occurrence, event, { timeZone, actor: userId });
      if (!message) return;
      await client.chat.postMessage({ channel: request.requestedBy, text: message.text, blocks: message.blocks, unfurl_links: false });
    } catch (error) {
      logger.error({ err: error, payoutId: request.id, event }, 'could not tell the requester about their scheduled payout');
    }
  }
}
