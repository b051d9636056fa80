/** The Workflow Builder step "Request a payout": its steps, completed in Slack, and their sweep every 30 s or so. */
import type { PayoutService } from '../payouts/index.js';
import { every } from '../runtime/every.js';
import { SlackStepCompleter } from '../slack/publishers/workflow-step-completer.js';
import { PayoutSteps } from '../workflow/index.js';
import type { Wiring, WorkStops } from './context.js';
import type { Infrastructure } from './infrastructure.js';
import type { SlackParts } from './slack.js';

export function buildWorkflow({ logger, clock, options }: Wiring, { db }: Infrastructure, { app, tokens, locales }: SlackParts, payouts: PayoutService) {
  const log = logger.child({ component: 'workflow' });
  const steps = new PayoutSteps({
    db,
    clock,
    payouts,
    logger: log,
    completer: new SlackStepCompleter({ client: app.client, tokens, locales, payout: (id) => payouts.get(id), logger: log }),
  });
  const start = (stops: WorkStops) => {
    // Completions left in the background by a payout's change are waited for too.
    every('workflow steps', options.payoutTimers?.maintenanceEveryMs ?? 30_000, () => steps.sweep(), {
      logger: log,
      failure: 'workflow step sweep failed',
      shutdown: stops,
      afterStop: () => steps.idle(),
    });
  };
  return { steps, start };
}
