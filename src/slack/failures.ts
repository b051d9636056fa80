/**
 * Turns anything that went wrong into words for the person in Slack, in their language; the details
 * go to the log. The one place where a Fleet API error's `code` becomes a text a person reads.
 */
import { randomUUID } from 'node:crypto';
import { FleetBadResponseError, FleetError, FleetRejectedError } from '../fleet/errors.js';
import { textsFor, translate, type Locale, type MessageKey } from '../i18n/index.js';
import type { Logger } from '../logger.js';
import { escapeMrkdwn } from './views/text.js';

/** What could not be done: each completes "Could not …" in the catalog (`failure.action.*`). */
export type FailureAction = MessageKey extends infer K ? (K extends `failure.action.${infer A}` ? A : never) : never;

/** A Fleet API error in the reader's language, as mrkdwn (the API's own words escaped). */
export function fleetErrorText(locale: Locale, error: FleetError): string {
  const t = textsFor(locale);
  if (error instanceof FleetRejectedError) {
    // A rejection quotes the Fleet API's own message: untrusted text in mrkdwn.
    return error.apiMessage
      ? t('fleetError.rejectedSaying', { message: escapeMrkdwn(error.apiMessage) })
      : t('fleetError.rejected', { status: String(error.status ?? '?') });
  }
  if (error instanceof FleetBadResponseError) return t('fleetError.bad_response', { detail: escapeMrkdwn(error.problem) });
  return fleetCodeText(locale, error.code) ?? escapeMrkdwn(error.userMessage);
}

/** The text of a Fleet error known only by its `FleetErrorCode` (e.g. stored by the feed); undefined for a code it does not know. */
export function fleetCodeText(locale: Locale, code: string): string | undefined {
  const t = textsFor(locale);
  switch (code) {
    case 'auth':
    case 'not_found':
    case 'rate_limited':
    case 'unavailable':
    case 'timeout':
    case 'connection':
      return t(`fleetError.${code}`);
    case 'bad_response':
      return t('fleetError.bad_responseBare');
    case 'rejected':
      return t('fleetError.rejectedBare');
    default:
      return undefined;
  }
}

/** "Could not read the balance. <why>" in `locale`; an unexpected error gets an incident id that the log repeats. */
export function failureText(locale: Locale, error: unknown, action: FailureAction, logger: Logger): string {
  const t = textsFor(locale);
  const what = t(`failure.action.${action}`);
  if (error instanceof FleetError) {
    logger.warn({ err: error, code: error.code, status: error.status }, `could not ${action}`);
    return t('failure.known', { what, reason: fleetErrorText(locale, error) });
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    logger.warn({ err: error }, `could not ${action}: gave up waiting`);
    return t('failure.known', { what, reason: t('fleetError.timeout') });
  }
  const incident = randomUUID().slice(0, 8);
  logger.error({ err: error, incident }, `unexpected failure trying to ${action}`);
  return t('failure.unexpected', { what, incident: `\`${incident}\`` });
}

/**
 * The same in English for callers that still name the action in words (`what` completes
 * "Could not …", e.g. "read the balance"); new code uses `failureText`.
 */
export function describeFailure(error: unknown, what: string, logger: Logger): string {
  if (error instanceof FleetError) {
    logger.warn({ err: error, code: error.code, status: error.status }, `could not ${what}`);
    return translate('en', 'failure.known', { what, reason: fleetErrorText('en', error) });
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    logger.warn({ err: error }, `could not ${what}: gave up waiting`);
    return translate('en', 'failure.known', { what, reason: translate('en', 'fleetError.timeout') });
  }
  const incident = randomUUID().slice(0, 8);
  logger.error({ err: error, incident }, `unexpected failure trying to ${what}`);
  return translate('en', 'failure.unexpected', { what, incident: `\`${incident}\`` });
}
