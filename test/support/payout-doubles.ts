/** Test doubles for the payout domain: a hand-moved clock, a Fleet API that records calls, fixed roles. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { Config } from '../../src/config/config.js';
import { FleetError } from '../../src/fleet/errors.js';
import {
  wholePage,
  type FleetApi,
  type PayoutKind,
  type PayoutRequestOf,
  type PayoutResult,
  type Transaction,
  type TransactionListPage,
} from '../../src/fleet/schemas.js';
import { createLogger } from '../../src/core/logger.js';
import type { PayoutEventName, PayoutRequest } from '../../src/payouts/model.js';
import type { PayoutRoles } from '../../src/payouts/roles.js';
import { PayoutService, type PayoutServiceOptions } from '../../src/payouts/service.js';
import type { Db } from '../../src/store/db.js';

export class ManualClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current);
  }
  async sleep(): Promise<void> {}
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
  set(at: Date): void {
    this.current = new Date(at);
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

type PayoutCall = { [K in PayoutKind]: { kind: K; body: PayoutRequestOf<K> } }[PayoutKind];

/** What the next payout POST does: answer, throw, or wait for the test to let it go. */
export type PayoutBehaviour = PayoutResult | FleetError | ((call: PayoutCall) => Promise<PayoutResult>);

export class RecordingFleet implements FleetApi {
  readonly payoutCalls: PayoutCall[] = [];
  readonly listCalls: Array<{ limit?: number; offset?: number }> = [];
  /** Newest first, like the API. */
  transactions: Transaction[] = [];
  listFailure: FleetError | undefined;
  private behaviours: PayoutBehaviour[] = [];
  private counter = 0;

  /** Queue what the next POSTs do; when the queue is empty a POST succeeds with a fresh id. */
  willAnswer(...behaviours: PayoutBehaviour[]): void {
    this.behaviours.push(...behaviours);
  }

  addTransaction(transaction: Partial<Transaction> & Pick<Transaction, 'reference'>): void {
    this.transactions.unshift({
      type: 'PAYMENT',
      amount: 150,
      currency: 'USD',
      description: '',
      date: new Date().toISOString(),
      status: 'Completed',
      ...transaction,
    });
  }

  async getBalance() {
    return { USD: 1_000_000 };
  }

  async listTransactions(page: { limit?: number; offset?: number } = {}): Promise<TransactionListPage> {
    this.listCalls.push(page);
    if (this.listFailure) throw this.listFailure;
    const offset = page.offset ?? 0;
    return wholePage(this.transactions.slice(offset, offset + (page.limit ?? 50)));
  }

  payout<K extends PayoutKind>(kind: K, body: PayoutRequestOf<K>): Promise<PayoutResult> {
    return this.answer({ kind, body } as PayoutCall);
  }

  private async answer(call: PayoutCall): Promise<PayoutResult> {
    this.payoutCalls.push(call);
    const behaviour = this.behaviours.shift();
    if (behaviour === undefined) {
      this.counter += 1;
      return { transactionId: `TX-${this.counter}`, message: 'Payout processing initiated' };
    }
    if (behaviour instanceof FleetError) throw behaviour;
    if (typeof behaviour === 'function') return behaviour(call);
    return behaviour;
  }
}

export const settings: Config['payouts'] = {
  approvalChannelId: 'C0APPROVALS',
  operators: ['VODACOM_MPESA', 'ORANGE_MONEY'],
  currencies: ['USD', 'EUR', 'CDF'],
  maxAmount: new Map([
    ['USD', 5_000_000],
    ['EUR', 5_000_000],
    ['CDF', 10_000_000_000],
  ]),
  dailyLimit: new Map([
    ['USD', 10_000_000],
    ['EUR', 10_000_000],
    ['CDF', 25_000_000_000],
  ]),
  dualApprovalAbove: new Map([
    ['USD', 100_000],
    ['EUR', 100_000],
    ['CDF', 250_000_000],
  ]),
  requestTtlHours: 24,
  settleWindowMinutes: 10,
  // Off here: the tests of the other rules pay recipients never paid before; recipients.test.ts turns it on.
  newRecipientApprovals: 1,
  duplicateWindowHours: 72,
  // No senior tier unless a test sets one (tiers.test.ts).
  seniorApprovalAbove: new Map(),
};

export const REQUESTER = 'UREQUESTER';
export const APPROVER = 'UAPPROVER1';
export const SECOND_APPROVER = 'UAPPROVER2';
/** Allowed to do both; still never approves their own request. */
export const REQUESTER_APPROVER = 'UBOTHROLES';
export const OUTSIDER = 'UOUTSIDER';

export function rolesFor(requesters: string[], approvers: string[]) {
  return {
    canRequest: async (userId: string) => requesters.includes(userId),
    canApprove: async (userId: string) => approvers.includes(userId),
  };
}

const approverIds = Array.from({ length: 20 }, (_, index) => `UAPPROVER${index + 1}`);

export interface Notification {
  id: string;
  state: string;
  event: PayoutEventName;
  actor: string | undefined;
}

export function createService(db: Db, overrides: Partial<PayoutServiceOptions> = {}) {
  const clock = new ManualClock(new Date('2025-03-14T10:00:00Z'));
  const fleet = new RecordingFleet();
  const notifications: Notification[] = [];
  const service = new PayoutService({
    db,
    fleet,
    clock,
    roles: rolesFor([REQUESTER, REQUESTER_APPROVER], [...approverIds, REQUESTER_APPROVER]),
    settings,
    logger: createLogger({ level: 'silent' }),
    notifiers: [
      {
        changed: async (request: PayoutRequest, event: PayoutEventName, actor?: string) => {
          notifications.push({ id: request.id, state: request.state, event, actor });
        },
      },
    ],
    ...overrides,
  });
  return { service, clock, fleet, notifications };
}

/** Forms as a person would fill them in. */
export const mobileForm = {
  phone: '+243 812 345 678',
  name: 'Amani Kabila',
  countryCode: 'CD',
  operator: 'VODACOM_MPESA',
  amount: '150',
  currency: 'USD',
  reference: '',
  note: 'March stipend',
};

export const bankForm = {
  accountNumber: '0001 2345 6789',
  bankCode: 'BCDCCDKI',
  name: 'Ndaya Logistics SARL',
  countryCode: 'CD',
  amount: '750.50',
  currency: 'EUR',
  reference: '',
  note: '',
};

/** Empties the payout tables between tests sharing one database (TRUNCATE passes the append-only trigger). */
/** A form validated and submitted by `by`, as a stored pending request; bank or mobile from its fields. */
export async function submitted(service: PayoutService, fields: Record<string, string> = mobileForm, by = REQUESTER): Promise<PayoutRequest> {
  const kind = 'accountNumber' in fields ? 'bank_account' : 'mobile_money';
  const validation = await service.validate(kind, fields);
  if (!validation.ok) throw new Error(`expected a valid form: ${JSON.stringify(validation.errors)}`);
  const result = await service.submit(by, validation.draft);
  if (!result.ok) throw new Error(`expected the submission to be stored: ${result.code}`);
  return result.request;
}

/**
 * One database for a describe block (opened before it, closed after it), with the payout tables
 * emptied before each test. `use` receives the database once it is open.
 */
export function usePayoutDatabase(open: () => Promise<Db>, use: (db: Db) => void): void {
  let db: Db | undefined;
  beforeAll(async () => {
    db = await open();
    use(db);
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    if (db) await resetPayouts(db);
  });
}

export async function resetPayouts(db: Db): Promise<void> {
  await db.query(
    'TRUNCATE payout_schedule_events, payout_occurrences, payout_schedules, payout_events, payout_approvals, payout_retry_approvals, payout_likely_matches, payout_requests, saved_recipients, saved_recipient_events, payout_batch_events, payout_batch_approvals, payout_batch_rows, payout_batch_pace, payout_batches, payout_approval_reminders',
  );
}

/** A stored request waiting for approval, for tests of pure functions; override what the test is about. */
export function pendingRequest(overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  return {
    kind: 'mobile_money',
    recipient: { phone: '243812345678', name: 'Amani Kabila', countryCode: 'CD' },
    operator: 'VODACOM_MPESA',
    amountMinor: 15000,
    currency: 'USD',
    reference: 'PAY-20250314-ABCDEF',
    note: '',
    id: 'PR-7K3F9Q',
    requestedBy: 'UREQUESTER',
    requestedAt: new Date('2025-03-14T11:00:00Z'),
    expiresAt: new Date('2025-03-15T11:00:00Z'),
    state: 'pending',
    approvals: [],
    requiredApprovals: 1,
    newRecipient: false,
    previousRecipientName: undefined,
    transactionId: undefined,
    failureReason: undefined,
    rejectedBy: undefined,
    rejectReason: undefined,
    approvalMessage: undefined,
    needsReview: false,
    attempts: 0,
    referenceGenerated: true,
    retryApprovals: [],
    likelyMatch: undefined,
    lastSearch: undefined,
    updatedAt: new Date('2025-03-14T11:00:00Z'),
    version: 1,
    ...overrides,
  } as PayoutRequest;
}

export const THIRD_APPROVER = 'UAPPROVER3';

/**
 * Roles that can change during a test. `cached` answers as a cache still would (what the lists were
 * when `warm()` was last called); only a fresh lookup sees a removal at once.
 */
export function changingRoles() {
  const requesters = new Set([REQUESTER, REQUESTER_APPROVER]);
  const approvers = new Set([APPROVER, SECOND_APPROVER, THIRD_APPROVER, REQUESTER_APPROVER]);
  let cachedRequesters = new Set(requesters);
  let cachedApprovers = new Set(approvers);
  let unreadable = false;
  const freshLookups: string[] = [];
  const answer = (current: Set<string>, cached: Set<string>, userId: string, options?: { fresh?: boolean }) => {
    if (!options?.fresh) return Promise.resolve(cached.has(userId));
    freshLookups.push(userId);
    return unreadable ? Promise.reject(new Error('usergroups.users.list failed')) : Promise.resolve(current.has(userId));
  };
  const roles: PayoutRoles = {
    canRequest: (userId, options) => answer(requesters, cachedRequesters, userId, options),
    canApprove: (userId, options) => answer(approvers, cachedApprovers, userId, options),
  };
  return {
    roles,
    requesters,
    approvers,
    freshLookups,
    warm() {
      cachedRequesters = new Set(requesters);
      cachedApprovers = new Set(approvers);
    },
    failLookups(fail: boolean) {
      unreadable = fail;
    },
  };
}

/** The approval signals of an ordinary payout (nothing to notice), for notifier doubles. */
export async function quietSignals(request: Pick<PayoutRequest, 'currency' | 'amountMinor'>) {
  return {
    duplicateOf: undefined,
    unusualAmount: undefined,
    dayTotals: { currency: request.currency, requesterMinor: request.amountMinor, recipientMinor: request.amountMinor },
  };
}
