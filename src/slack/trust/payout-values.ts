/** What payout buttons and modals carry back from the client: only the shape of a request id is trusted, nothing else. */
import { PAYOUT_ID_PATTERN } from '../../payouts/index.js';

/** A request id from a button value or private_metadata. */
export function readPayoutId(value: string | undefined): string | undefined {
  const id = value?.trim().toUpperCase();
  return id && PAYOUT_ID_PATTERN.test(id) ? id : undefined;
}

/** `PR-XXXXXX:<match id>` from a likely match's button. */
export function readMatchValue(value: string | undefined): { id: string; matchId: string } | undefined {
  const [id, matchId, ...rest] = (value ?? '').split(':');
  const payoutId = readPayoutId(id);
  return payoutId && matchId && rest.length === 0 && /^[0-9a-f]{24}$/.test(matchId) ? { id: payoutId, matchId } : undefined;
}
