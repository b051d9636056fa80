/** Turns anything that went wrong into words for the person in Slack; the details go to the log. */
import { randomUUID } from 'node:crypto';
import { FleetError } from '../fleet/errors.js';
import type { Logger } from '../logger.js';
import { escapeMrkdwn } from './views/text.js';

/** `what` completes "Could not …", e.g. "read the balance". */
export function describeFailure(error: unknown, what: string, logger: Logger): string {
  if (error instanceof FleetError) {
    logger.warn({ err: error, code: error.code, status: error.status }, `could not ${what}`);
    // A rejection quotes the Fleet API's own message: untrusted text in mrkdwn.
    return `:warning: Could not ${what}. ${escapeMrkdwn(error.userMessage)}`;
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    logger.warn({ err: error }, `could not ${what}: gave up waiting`);
    return `:warning: Could not ${what}. The Fleet API took too long to answer.`;
  }
  const incident = randomUUID().slice(0, 8);
  logger.error({ err: error, incident }, `unexpected failure trying to ${what}`);
  return `:warning: Could not ${what}: something went wrong on our side. The error is logged as \`${incident}\`.`;
}
