/**
 * The Slack surface of payouts, put together: the `/fleet payout` and `/fleet payouts` subcommands
 * and the listeners for the request modals and the approval message.
 */
import type { App } from '@slack/bolt';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { PAYOUT_ID_PATTERN, type PayoutService } from '../../payouts/index.js';
import type { Subcommand } from '../context.js';
import type { Surface } from '../views/common.js';
import { registerPayoutApprovalListeners } from './payout-approval.js';
import { payoutRecordsSubcommand } from './payout-records.js';
import { payoutRequestSubcommand, registerPayoutRequestListeners } from './payout-request.js';

/** What the payout listeners share. */
export interface PayoutSlackDeps {
  service: PayoutService;
  settings: Config['payouts'];
  surface: Surface;
  logger: Logger;
  /** For the policy checks made before a modal opens; the service checks again on submission. */
  clock: Clock;
}

export function payoutSubcommands(deps: PayoutSlackDeps): Record<'payout' | 'payouts', Subcommand> {
  return { payout: payoutRequestSubcommand(deps), payouts: payoutRecordsSubcommand(deps) };
}

export function registerPayoutListeners(app: App, deps: PayoutSlackDeps): void {
  registerPayoutRequestListeners(app, deps);
  registerPayoutApprovalListeners(app, deps);
}

/** A request id from a button value or private_metadata: only its shape is trusted, nothing else. */
export function readPayoutId(value: string | undefined): string | undefined {
  const id = value?.trim().toUpperCase();
  return id && PAYOUT_ID_PATTERN.test(id) ? id : undefined;
}
