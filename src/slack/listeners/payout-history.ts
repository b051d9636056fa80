/**
 * `/fleet payouts` (recent requests and bulk payouts), `/fleet payouts <id>` (one request's history) and
 * `/fleet payouts <words>` (requests found by reference, recipient, phone or account; bulk payouts by
 * id, file name or a row's reference, recipient, phone or account), for
 * requesters and approvers, in their language.
 */
import { textsFor } from '../../i18n/index.js';
import type { SlackContext } from '../context.js';
import type { Subcommand } from '../subcommands.js';
import { failureText } from '../refusals/failures.js';
import { refusalMessage } from '../refusals/payout-refusals.js';
import { escapeMrkdwn } from '../views/text.js';
import { readPayoutId } from '../trust/payout-values.js';
import { privateNotice } from '../views/notice.js';
import { buildPayoutHistory, buildPayoutList } from '../views/payout-history.js';

const RECENT = 15;
// Bulk payouts are few and each holds many payouts: the newest five are shown with the requests.
const RECENT_BULK = 5;

export function payoutHistorySubcommand(ctx: SlackContext): Subcommand {
  const { payouts, logger } = ctx;
  return {
    name: 'payouts',
    localNames: { fr: 'paiements' },
    audience: 'requesters-and-approvers',
    help: (t) => [{ usage: t('payoutRecords.help.usage'), description: t('payoutRecords.help.description') }],
    async run({ command, args, respond, readerSurface }) {
      const reader = await readerSurface();
      const t = textsFor(reader.locale);
      const say = (text: string) => respond(privateNotice(reader, text));
      try {
        if (!(await payouts.canView(command.user_id))) {
          await say(t('payoutRecords.locked'));
          return;
        }
        const word = args[0];
        if (word === undefined) {
          const [requests, batches] = await Promise.all([payouts.listRecent({ limit: RECENT }), ctx.batches.listRecent({ limit: RECENT_BULK })]);
          await respond({ response_type: 'ephemeral', ...buildPayoutList(reader, requests, undefined, { batches, total: batches.length }) });
          return;
        }
        const id = args.length === 1 ? readPayoutId(word) : undefined;
        if (!id) {
          // Anything but one id is a search: words found in the reference, recipient, phone or account.
          const words = args.map((arg) => arg.replace(/^["“«]|["”»]$/gu, '')).filter((arg) => arg.trim() !== '');
          const [found, bulk] = await Promise.all([payouts.search(words, { limit: RECENT }), ctx.batches.search(words, { limit: RECENT_BULK })]);
          await respond({ response_type: 'ephemeral', ...buildPayoutList(reader, found.requests, { words, total: found.total }, bulk) });
          return;
        }
        const request = await payouts.get(id);
        if (!request) {
          await say(escapeMrkdwn(refusalMessage({ code: 'not_found', details: { payoutId: id } }, reader.locale)));
          return;
        }
        await respond({ response_type: 'ephemeral', ...buildPayoutHistory(reader, request, await payouts.history(id)) });
      } catch (error) {
        await say(failureText(reader.locale, error, 'readPayouts', logger));
      }
    },
  };
}
