/** `/fleet payouts` (recent requests) and `/fleet payouts <id>` (one request's history), for requesters and approvers. */
import type { SlackContext } from '../context.js';
import type { Subcommand } from '../subcommands.js';
import { describeFailure } from '../failures.js';
import { codeSpan } from '../views/text.js';
import { readPayoutId } from '../payout-values.js';
import { notice } from '../views/common.js';
import { buildPayoutHistory, buildPayoutList } from '../views/payout-history.js';

const RECENT = 15;

export function payoutRecordsSubcommand({ payouts, surface, logger }: SlackContext): Subcommand {
  return {
    name: 'payouts',
    localNames: { fr: 'paiements' }, audience: 'requesters-and-approvers',
    help: () => [{ usage: '/fleet payouts [id]', description: 'Recent payout requests and their state; with an id such as `PR-7K3F9Q`, its full history.' }],
    async run({ command, args, respond }) {
      const say = (text: string) => respond({ response_type: 'ephemeral', ...notice(surface, text) });
      try {
        if (!(await payouts.canView(command.user_id))) {
          await say(':lock: Only the people who may request or approve payouts can see them (FLEET_REQUESTERS, FLEET_APPROVERS).');
          return;
        }
        const word = args[0];
        if (word === undefined) {
          await respond({ response_type: 'ephemeral', ...buildPayoutList(surface, await payouts.listRecent({ limit: RECENT })) });
          return;
        }
        const id = readPayoutId(word);
        if (!id) {
          await say(`${codeSpan(word, 40)} is not a payout id. Ids look like \`PR-7K3F9Q\`; \`/fleet payouts\` lists the recent ones.`);
          return;
        }
        const request = await payouts.get(id);
        if (!request) {
          await say(`There is no payout ${id}.`);
          return;
        }
        await respond({ response_type: 'ephemeral', ...buildPayoutHistory(surface, request, await payouts.history(id)) });
      } catch (error) {
        await say(describeFailure(error, 'read the payouts', logger));
      }
    },
  };
}
