/** What the sandbox answers on each endpoint of the spec: the Bearer check, the account reads and the two payouts. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '../core/clock.js';
import { randomCode, type GeneratorContext, type SandboxLedger } from './data.js';
import { PAYOUT_KINDS, PAYOUT_PATHS, type PayoutKind } from '../fleet/schemas.js';
import { payoutLabel, validatePayout } from './payouts.js';
import { authorized, errorReply, integerParam, methodNotAllowed, type Reply } from './replies.js';

export interface SandboxPayout {
  kind: PayoutKind;
  body: unknown;
  transactionId: string;
}

export interface RoutedAccount {
  apiKey: string;
  ledger: SandboxLedger;
  context: GeneratorContext;
  clock: Clock;
  /** Every payout accepted so far, oldest first. */
  payouts: SandboxPayout[];
}

export interface RoutedRequest {
  method: string;
  headers: IncomingHttpHeaders;
  url: URL;
  /** The parsed JSON body, undefined when there was none. */
  body: unknown;
}

const BALANCE_PATH = '/api/v1/b2b/account/balance';
// The spec writes the list path both with and without `v1`.
const TRANSACTIONS_PATHS = new Set(['/api/v1/b2b/account/transactions', '/api/b2b/account/transactions']);
const PAYOUT_KIND_BY_PATH = new Map<string, PayoutKind>(PAYOUT_KINDS.map((kind) => [PAYOUT_PATHS[kind], kind]));

export function createRouter(account: RoutedAccount): (request: RoutedRequest) => Reply {
  const { ledger, context, clock, payouts } = account;
  const usedReferences = new Set<string>();

  const payout = (kind: PayoutKind, body: unknown): Reply => {
    const checked = validatePayout(kind, body, context);
    if (!checked.ok) return errorReply(400, checked.message);
    const { amount, currency, reference, destination } = checked.payout;
    if (usedReferences.has(reference)) {
      return errorReply(409, `A payout with reference ${reference} was already submitted.`, 'duplicate_reference');
    }
    let transactionId = `PO-${randomCode(context.random, 12)}`;
    while (ledger.hasReference(transactionId)) transactionId = `PO-${randomCode(context.random, 12)}`;
    const label = payoutLabel(kind);
    ledger.add({
      reference: transactionId,
      type: 'PAYMENT',
      amount,
      currency,
      description: `${label} ${reference} to ${destination}`,
      date: clock.now().toISOString(),
      status: 'Completed',
    });
    usedReferences.add(reference);
    payouts.push({ kind, body, transactionId });
    return { status: 200, body: { success: true, message: 'Payout processing initiated', transactionId } };
  };

  return ({ method, headers, url, body }) => {
    if (!authorized(headers.authorization, account.apiKey)) return errorReply(401, 'Missing or invalid API key.');
    const path = url.pathname;
    if (path === BALANCE_PATH) {
      if (method !== 'GET') return methodNotAllowed('GET');
      return { status: 200, body: { success: true, balances: ledger.balances() } };
    }
    if (TRANSACTIONS_PATHS.has(path)) {
      if (method !== 'GET') return methodNotAllowed('GET');
      const limit = integerParam(url, 'limit', 50, 1, 100);
      if (limit === undefined) return errorReply(400, 'limit must be a whole number from 1 to 100.');
      const offset = integerParam(url, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      if (offset === undefined) return errorReply(400, 'offset must be a whole number of 0 or more.');
      return { status: 200, body: { success: true, transactions: ledger.transactions().slice(offset, offset + limit) } };
    }
    const kind = PAYOUT_KIND_BY_PATH.get(path);
    if (kind) {
      if (method !== 'POST') return methodNotAllowed('POST');
      if (!/^application\/json\b/i.test(headers['content-type'] ?? '')) {
        return errorReply(415, 'Send the payout as JSON with Content-Type: application/json.');
      }
      if (body === undefined) return errorReply(400, 'The request body must be a JSON object.');
      return payout(kind, body);
    }
    return errorReply(404, `No endpoint at ${path.slice(0, 100)}.`);
  };
}
