/**
 * Turns anything that went wrong into words for the person in Slack, in their language; the details
 * go to the log. The one place where a Fleet API error's `code` becomes a text a person reads.
 */
import { randomUUID } from 'node:crypto';
import { FleetBadResponseError, FleetError, FleetRejectedError } from '../../fleet/errors.js';
import { textsFor, type Locale, type MessageKey } from '../../i18n/index.js';
import type { Logger } from '../../core/logger.js';
import { escapeMrkdwn } from '../views/text.js';

/** What could not be done: each completes "Could not …" in the catalog (`failure.action.*`). */
export type FailureAction = MessageKey extends infer K ? (K extends `failure.action.${infer A}` ? A : never) : never;

/** A Fleet API error in the reader's language, as mrkdwn (the API's own words escaped). */
function fleetErrorText(locale: Locale, error: FleetError): string {
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

/**
 * What could not be done, to complete "Could not …" or "Impossible …": French puts `de` before the
 * verb, elided before a vowel or a mute h (`de lire le solde`, `d’ouvrir le filtre`), so the catalog
 * keeps each action a bare infinitive in both languages.
 */
function actionWords(locale: Locale, action: FailureAction): string {
  const verb = textsFor(locale)(`failure.action.${action}`);
  if (locale !== 'fr') return verb;
  return /^[aàâeéèêëiîïoôuùûh]/i.test(verb) ? `d’${verb}` : `de ${verb}`;
}

/** "Could not read the balance. <why>" in `locale`; an unexpected error gets an incident id that the log repeats. */
export function failureText(locale: Locale, error: unknown, action: FailureAction, logger: Logger): string {
  const t = textsFor(locale);
  const what = actionWords(locale, action);
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
