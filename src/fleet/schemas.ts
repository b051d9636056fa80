/**
 * The Fleet API's wire format as zod schemas; the TypeScript types come from these.
 * Values the spec lists only as "seen" (currencies, transaction type and status) stay plain strings.
 */
import { z } from 'zod';

export const balanceResponseSchema = z.object({
  success: z.literal(true),
  balances: z.record(z.string(), z.number()),
});
export type Balances = z.infer<typeof balanceResponseSchema>['balances'];

export const transactionSchema = z.object({
  reference: z.string(),
  type: z.string(),
  amount: z.number(),
  currency: z.string(),
  // The spec types it as a string; a missing or null description is shown as empty rather than failing the page.
  description: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  date: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO 8601 timestamp'),
  status: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

// Entries are checked one by one (see FleetClient.listTransactions): one malformed entry must not
// make the whole page, and with it the feed, the transaction list and settlement, unreadable.
export const transactionListResponseSchema = z.object({
  success: z.literal(true),
  transactions: z.array(z.unknown()),
});

/** One page of the newest-first transaction list, as the API sent it. */
export interface TransactionListPage {
  /** The well-formed entries, in the API's order. */
  transactions: Transaction[];
  /**
   * How many entries the API sent, malformed ones included: compare this, not `transactions.length`,
   * with the limit asked for to know whether the list goes on.
   */
  received: number;
  /** Entries that could not be read and were left out (logged without their content). */
  malformed: number;
}

/**
 * The payout rails the Fleet API offers, one endpoint each. The app's rails (`payouts/rails/`) and
 * the sandbox key their handling by this union, so a new kind is a compile error wherever one is missing.
 */
export const PAYOUT_KINDS = ['mobile_money', 'bank_account'] as const;
export type PayoutKind = (typeof PAYOUT_KINDS)[number];

/** The endpoint each rail's payouts are sent to. */
export const PAYOUT_PATHS: Readonly<Record<PayoutKind, string>> = {
  mobile_money: '/api/v1/b2b/payouts/mobile-money',
  bank_account: '/api/v1/b2b/payouts/bank-account',
};

const mobileMoneyRecipientSchema = z.object({
  phone: z.string(),
  name: z.string(),
  countryCode: z.string(),
});
export type MobileMoneyRecipient = z.infer<typeof mobileMoneyRecipientSchema>;

const bankAccountRecipientSchema = z.object({
  accountNumber: z.string(),
  bankCode: z.string(),
  name: z.string(),
  countryCode: z.string(),
});
export type BankAccountRecipient = z.infer<typeof bankAccountRecipientSchema>;

export const mobileMoneyPayoutRequestSchema = z.object({
  recipient: mobileMoneyRecipientSchema,
  amount: z.number(),
  currency: z.string(),
  reference: z.string(),
  operator: z.string(),
});
export type MobileMoneyPayoutRequest = z.infer<typeof mobileMoneyPayoutRequestSchema>;

export const bankAccountPayoutRequestSchema = z.object({
  recipient: bankAccountRecipientSchema,
  amount: z.number(),
  currency: z.string(),
  reference: z.string(),
});
export type BankAccountPayoutRequest = z.infer<typeof bankAccountPayoutRequestSchema>;

/** The body each kind's endpoint takes: the app's draft of a kind carries the same fields but the amount (in minor units there). */
export const PAYOUT_REQUEST_SCHEMAS = {
  mobile_money: mobileMoneyPayoutRequestSchema,
  bank_account: bankAccountPayoutRequestSchema,
} as const satisfies { readonly [K in PayoutKind]: z.ZodObject };
export type PayoutRequestOf<K extends PayoutKind> = z.infer<(typeof PAYOUT_REQUEST_SCHEMAS)[K]>;
/** The fields every payout body has; the others (`recipient`, `operator`, …) are the kind's own. */
export const PAYOUT_REQUEST_COMMON = ['amount', 'currency', 'reference'] as const;

export const mobileMoneyPayoutResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  transactionId: z.string().min(1),
});

// The bank endpoint's response is "not shown" in the spec: we accept the mobile money shape with
// every field but `success` optional; a success without a transactionId is reconciled by reference.
export const bankAccountPayoutResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  transactionId: z.string().min(1).optional(),
});

/** The answer each kind's endpoint gives. */
export const PAYOUT_RESPONSE_SCHEMAS: { readonly [K in PayoutKind]: z.ZodType<{ transactionId?: string | undefined; message?: string | undefined }> } = {
  mobile_money: mobileMoneyPayoutResponseSchema,
  bank_account: bankAccountPayoutResponseSchema,
};

export interface PayoutResult {
  /** The service's unique reference for the payout; absent only when the bank endpoint omits it. */
  transactionId: string | undefined;
  message: string | undefined;
}

/** What the rest of the app needs from the Fleet API; the HTTP client and test doubles implement it. */
export interface FleetApi {
  getBalance(options?: { signal?: AbortSignal }): Promise<Balances>;
  /**
   * Newest first. `limit` is clamped to 1–100 (default 50), `offset` to ≥ 0. A malformed entry is
   * left out and counted in `malformed`; the rest of the page is still returned.
   */
  listTransactions(page?: { limit?: number; offset?: number }, options?: { signal?: AbortSignal }): Promise<TransactionListPage>;
  /**
   * A payout of a kind, to its endpoint (`PAYOUT_PATHS`). Never retried: a failure that may have
   * reached the service throws with `outcomeUnknown` set.
   */
  payout<K extends PayoutKind>(kind: K, request: PayoutRequestOf<K>): Promise<PayoutResult>;
}

/** A page in which every entry was well formed (for stand-ins of the API that build entries themselves). */
export function wholePage(transactions: Transaction[]): TransactionListPage {
  return { transactions, received: transactions.length, malformed: 0 };
}
