/**
 * Failure reasons stored before reasons were codes. Until then a failed or unknown payout kept the
 * Fleet client's English sentence (`error.userMessage`), or the app's own sentence for a sending a
 * stopped process left behind, and every reader got it in English. Each sentence the app ever wrote
 * is read back here to today's shape (`fleet:<code>[:<the API's words>]`, `INTERRUPTED_FAILURE`), so
 * that the Slack layer words it in the reader's language. The sentences are history: they stay as
 * they were written, whatever the client says today.
 */
import { INTERRUPTED_FAILURE, storedFleetFailure } from './failure-reasons.js';

const CONFLICT_SUFFIX = ' A payout with this reference may already exist.';

const FIXED: ReadonlyMap<string, string> = new Map([
  ['The Fleet API refused our API key. An admin needs to check FLEET_API_KEY.', storedFleetFailure({ code: 'auth' })],
  ['The Fleet API does not know this address. An admin needs to check FLEET_API_URL.', storedFleetFailure({ code: 'not_found' })],
  ['The Fleet API is limiting our requests right now. Try again in a minute.', storedFleetFailure({ code: 'rate_limited' })],
  ['The Fleet API is unavailable right now. Try again in a few minutes.', storedFleetFailure({ code: 'unavailable' })],
  ['The Fleet API took too long to answer.', storedFleetFailure({ code: 'timeout' })],
  ['Could not reach the Fleet API.', storedFleetFailure({ code: 'connection' })],
  ['The app stopped while sending this payout, so its outcome is not known yet.', INTERRUPTED_FAILURE],
]);

const REJECTED_SAYING = /^The Fleet API refused the request: ([\s\S]+)$/;
const REJECTED_BARE = /^The Fleet API refused the request \(HTTP \d{3}\)\.$/;
// The detail of an unreadable answer was the client's own English (`not JSON`): the code says enough.
const BAD_RESPONSE = /^The Fleet API sent an answer we could not read \([\s\S]*\)\.$/;

/** `stored` in today's shape when it is one of the app's old English sentences; otherwise as it is. */
export function currentFailureReason(stored: string): string {
  const conflict = stored.endsWith(CONFLICT_SUFFIX);
  const sentence = conflict ? stored.slice(0, -CONFLICT_SUFFIX.length) : stored;
  const fixed = FIXED.get(sentence);
  const apiMessage = REJECTED_SAYING.exec(sentence)?.[1];
  let code: string | undefined;
  if (apiMessage !== undefined || REJECTED_BARE.test(sentence)) code = 'rejected';
  else if (BAD_RESPONSE.test(sentence)) code = 'bad_response';
  if (conflict) return code === undefined && fixed === undefined ? stored : storedFleetFailure({ code: 'conflict', apiMessage });
  if (fixed !== undefined) return fixed;
  return code === undefined ? stored : storedFleetFailure({ code, apiMessage });
}
