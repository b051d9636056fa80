/** The reason a payout request stores when it failed or its outcome is unknown: the Fleet API's error, or the app's own. */

/** The failure reason of a payout whose sending a stopped process left behind; the Slack layer words it. */
export const INTERRUPTED_FAILURE = 'interrupted';

/**
 * Why the Fleet API failed a payout or left its outcome unknown, as stored: the client's error code
 * and, for a refusal, the API's own words (`fleet:rejected:<words>`), so that each reader gets the
 * reason in their own language. `conflict` is a 409: a payout with this reference may already exist.
 * Rows stored before this shape hold an English sentence, which is shown as it is.
 */
export interface FleetFailure {
  code: string;
  apiMessage?: string;
}

const FLEET_FAILURE = /^fleet:([a-z_]+)(?::([\s\S]*))?$/;

export function storedFleetFailure({ code, apiMessage }: FleetFailure): string {
  return apiMessage ? `fleet:${code}:${apiMessage}` : `fleet:${code}`;
}

/** The failure a stored reason holds, or undefined for the app's own reasons and older English text. */
export function readFleetFailure(stored: string): FleetFailure | undefined {
  const match = FLEET_FAILURE.exec(stored);
  if (!match) return undefined;
  return match[2] ? { code: match[1]!, apiMessage: match[2] } : { code: match[1]! };
}
