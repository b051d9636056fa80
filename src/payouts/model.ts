/**
 * The payout domain's vocabulary: what a payout request is, the states it moves through, the
 * events written to its audit log, and the typed results every service method returns. Approvals
 * and their rules are in `approval-model.ts`, stored failure reasons in `failure-reasons.ts`.
 */
import { PAYOUT_REQUEST_COMMON, PAYOUT_REQUEST_SCHEMAS, type PayoutKind, type PayoutRequestOf } from '../fleet/schemas.js';
import type { HiddenCharacterKind } from '../core/hidden-text.js';
import type { AmountProblem } from '../core/money.js';
import type { PayoutSchedule, ScheduledFrom } from './schedule/model.js';
import type { DualApprovalReason, PayoutApproval, PayoutHold } from './approval-model.js';

export type { BankAccountRecipient, MobileMoneyRecipient } from '../fleet/schemas.js';
export { PAYOUT_KINDS, type PayoutKind } from '../fleet/schemas.js';
export { DUAL_APPROVAL_RULES, PAYOUT_HOLDS } from './approval-model.js';
export type { AmountApprovalRule, DualApprovalReason, DualApprovalRule, PayoutApproval, PayoutHold } from './approval-model.js';
export { INTERRUPTED_FAILURE, readFleetFailure } from './failure-reasons.js';

export const PAYOUT_STATES = ['pending', 'approved', 'executing', 'completed', 'failed', 'unknown', 'rejected', 'expired', 'cancelled'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/**
 * The only moves a request can make. `unknown → executing` is an approver's explicit retry after
 * review; `unknown → completed` is reconciliation finding the payout; `unknown → failed` never happens
 * because a missing transaction is not proof that no money moved.
 */
const PAYOUT_TRANSITIONS: Readonly<Record<PayoutState, readonly PayoutState[]>> = {
  pending: ['approved', 'rejected', 'expired', 'cancelled'],
  // Back to pending when the gate before sending (`gate.ts`) finds a control that no longer passes.
  approved: ['executing', 'pending'],
  executing: ['completed', 'failed', 'unknown'],
  unknown: ['completed', 'executing'],
  completed: [],
  failed: [],
  rejected: [],
  expired: [],
  cancelled: [],
};

export function canTransition(from: PayoutState, to: PayoutState): boolean {
  return PAYOUT_TRANSITIONS[from].includes(to);
}

/** States after which nothing more can happen: the Slack message drops its buttons. */
export function isFinalState(state: PayoutState): boolean {
  return PAYOUT_TRANSITIONS[state].length === 0;
}

/** States whose amount still counts towards the requester's daily limit. */
export const STATES_COUNTING_TOWARDS_LIMIT: readonly PayoutState[] = ['pending', 'approved', 'executing', 'completed', 'unknown'];

export const PAYOUT_EVENT_NAMES = [
  'requested',
  'approved',
  'rejected',
  'executing',
  'completed',
  'failed',
  'unknown',
  'needs_review',
  'reconciled',
  'expired',
  'cancelled',
  'retried',
  'approvals_raised',
  'approval_revoked',
  'held',
  'retry_approved',
  'likely_match',
  'match_confirmed',
  'match_rejected',
] as const;
/**
 * One line of the audit log. Beyond the issue's list: `needs_review` (an unknown payout that
 * reconciliation did not settle within the window); the approval checks' `approvals_raised` (a
 * day total now needs two approvers), `approval_revoked` (its giver is no longer an approver) and
 * `held` (fully approved but not sent); `retry_approved` (one approver's agreement to send again,
 * while more are needed); and `likely_match` / `match_confirmed` / `match_rejected` (an entry that
 * quotes a person-typed reference only in its description, and an approver's answer).
 */
export type PayoutEventName = (typeof PAYOUT_EVENT_NAMES)[number];

/** What the requester typed, validated and normalised: everything needed to send the payout. */
export interface PayoutDraftCommon {
  amountMinor: number;
  currency: string;
  /** The partner reference sent to the Fleet API; unique across all requests. */
  reference: string;
  /** For the approver; empty string when none. */
  note: string;
  /**
   * True when the app generated the reference because the form left it empty. Only a hint from the
   * form: the store believes it only for a reference in the generated shape.
   */
  referenceGenerated?: boolean;
}

/**
 * A draft of a kind: its kind's own fields are those its Fleet request carries besides the amount,
 * currency and reference (`recipient`, and `operator` for mobile money), so a kind's draft follows
 * its request schema in `fleet/schemas.ts`.
 */
export type PayoutDraftOf<K extends PayoutKind> = Flat<{ kind: K } & Omit<PayoutRequestOf<K>, (typeof PAYOUT_REQUEST_COMMON)[number]> & PayoutDraftCommon>;
type Flat<T> = { [P in keyof T]: T[P] };

/** Narrow on `kind`: mobile money has `operator` and a phone; bank has an account number and BIC. */
export type PayoutDraft = { [K in PayoutKind]: PayoutDraftOf<K> }[PayoutKind];

/** The kind and its own fields besides the recipient (`operator` for mobile money), as its request schema names them. */
function railFields(value: PayoutDraft): Record<string, unknown> {
  const own = Object.keys(PAYOUT_REQUEST_SCHEMAS[value.kind].shape).filter(
    (key) => key !== 'recipient' && !(PAYOUT_REQUEST_COMMON as readonly string[]).includes(key),
  );
  const fields = value as unknown as Record<string, unknown>;
  const entries: Array<[string, unknown]> = [['kind', value.kind], ...own.map((key): [string, unknown] => [key, fields[key]])];
  return Object.fromEntries(entries);
}

/**
 * Whether `request` is exactly what `draft` asks for: the same rail, recipient, operator, amount,
 * currency, reference and note. A stored request is taken for a draft's only when it is.
 */
export function requestMatchesDraft(request: PayoutRequest, draft: PayoutDraft): boolean {
  const recipient = (value: PayoutDraft): Record<string, string> => ({ ...value.recipient });
  const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);
  return (
    same(railFields(request), railFields(draft)) &&
    same(recipient(request), recipient(draft)) &&
    request.amountMinor === draft.amountMinor &&
    request.currency === draft.currency &&
    request.reference === draft.reference &&
    request.note === draft.note
  );
}

/** The details of a recipient that decide where the money lands; the name is not one (the Fleet API cannot check it). */
export type RecipientField = 'phone' | 'operator' | 'accountNumber' | 'bankCode';

/**
 * A saved recipient picked in the payout form whose details were then edited: each detail changed
 * from the saved one (in the form's order), and the known recipient the edited details belong to,
 * named, when there is one; otherwise they are a new recipient.
 */
export interface ChangedDetails {
  saved: { identity: string; name: string };
  changes: { field: RecipientField; from: string; to: string }[];
  matches: { name: string; lastPayoutId: string } | undefined;
}

/**
 * An entry of the transaction list that quotes the payout's person-typed reference in its description
 * (same amount and currency), so it may be the payout or an unrelated credit: an approver decides.
 */
export interface LikelyMatch {
  /** Names this entry for the buttons, so that a stale button can never act on another entry. */
  id: string;
  reference: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
  proposedAt: Date;
}

/** How the last search of the transaction list for an unknown payout ended. */
export type SearchOutcome = 'not_found' | 'could_not_check';

/** How a request came in when the requester did not ask in the app themselves. */
export type RequestedThrough = 'workflow';

/** Where the approval message lives in Slack, so that it can be updated on every change. */
export interface ApprovalMessageRef {
  channel: string;
  ts: string;
}

/** The lifecycle half of a stored request. */
export interface PayoutLifecycle {
  /** Short and readable, like `PR-7K3F9Q`. */
  id: string;
  requestedBy: string;
  requestedAt: Date;
  /** A pending request past this moment can no longer be approved and is expired by maintenance. */
  expiresAt: Date;
  state: PayoutState;
  /** In order of approval; never contains the requester. */
  approvals: PayoutApproval[];
  /**
   * How many distinct approvers this payout needs: 2 when the amount, or the requester's or the
   * recipient's day total in its currency, is above the threshold; the new-recipient setting's count
   * when the recipient was never paid before, if that is more. Raised at approval, never lowered.
   */
  requiredApprovals: number;
  /** Why more than one approver is needed; undefined when one is enough (and on requests stored before the rule). */
  dualApproval?: DualApprovalReason | undefined;
  /** No completed payout had gone to this recipient when it was requested (see `recipients.ts`). */
  newRecipient: boolean;
  /** The recipient is known under another name: the name of its last completed payout. */
  previousRecipientName: string | undefined;
  /** Filled from a saved recipient in the form and then edited: what changed (see `recipients.ts`); set when requested. */
  changedDetails?: ChangedDetails | undefined;
  /** Set while the request has its approvals but was not sent; cleared when it is sent. */
  hold?: PayoutHold | undefined;
  /** The rejected request of the same requester that this one corrects ("Edit and resubmit"). */
  resubmitOf?: string | undefined;
  /** Made by a Workflow Builder step in the requester's name, which they confirmed; undefined when they asked in the app. */
  requestedThrough?: RequestedThrough | undefined;
  /** The bulk payout and row this request was made for; its approvals are the batch's. */
  batch?: { id: string; row: number } | undefined;
  /** Approved ahead for later: its date(s) and occurrences (attached by `PayoutService.get` and the records, see `schedule/`). */
  schedule?: PayoutSchedule | undefined;
  /** The scheduled request and occurrence this payout was released from. */
  scheduledFrom?: ScheduledFrom | undefined;
  /** The Fleet API's id once known (from the POST response or reconciliation). */
  transactionId: string | undefined;
  /**
   * Why it failed, or why its outcome is unknown: the Fleet client's words, or `INTERRUPTED_FAILURE`
   * when the app itself stopped while sending (older rows may hold that in English words).
   */
  failureReason: string | undefined;
  rejectedBy: string | undefined;
  rejectReason: string | undefined;
  approvalMessage: ApprovalMessageRef | undefined;
  /** Unknown and not found within the reconcile window: an approver must look, then may retry. */
  needsReview: boolean;
  /** How many times the payout was sent (1, or more after explicit retries). */
  attempts: number;
  /** The reference was generated by the app (`PAY-YYYYMMDD-XXXXXX`), not typed by a person. */
  referenceGenerated: boolean;
  /** Approvals to send it again as attempt `attempts + 1`; in order, never the requester. */
  retryApprovals: PayoutApproval[];
  /** An entry that may be this payout, waiting for an approver to confirm or turn it down. */
  likelyMatch: LikelyMatch | undefined;
  /** How the last search of the transaction list ended, while the outcome is unknown. */
  lastSearch: SearchOutcome | undefined;
  updatedAt: Date;
  /** Increases with every change; lets a caller detect that what it showed is stale. */
  version: number;
}

/** A stored payout request; narrow on `kind` for the recipient's shape and `operator`. */
export type PayoutRequest = PayoutDraft & PayoutLifecycle;

export interface PayoutEvent {
  /** Increasing: the order in which events happened. */
  id: number;
  requestId: string;
  event: PayoutEventName;
  /** The Slack user who caused it; undefined for the app's own moves (expiry, reconciliation). */
  userId: string | undefined;
  at: Date;
  details: Record<string, unknown>;
}

/** Every reason an action can be refused; the Slack layer tells each one in the reader's language. */
export type PayoutRefusalCode =
  | 'not_found'
  | 'not_requester'
  | 'not_approver'
  | 'own_request'
  | 'already_approved'
  | 'not_pending'
  | 'expired'
  | 'invalid'
  | 'duplicate_reference'
  | 'over_max_amount'
  | 'over_daily_limit'
  | 'reason_required'
  | 'not_cancellable'
  | 'not_retryable'
  | 'fleet_unavailable'
  /** The transaction list could not be read back to the request: "not found" cannot be said. */
  | 'could_not_check'
  /** A likely match waits for an approver's answer before anything else may happen. */
  | 'likely_match'
  | 'no_such_match'
  /** The request may repeat an earlier payout, and the approver did not tick that they checked it does not. */
  | 'duplicate_unchecked'
  /** Above PAYOUT_SENIOR_APPROVAL_ABOVE: one counted approval must come from PAYOUT_SENIOR_APPROVERS. */
  | 'needs_senior';

/** The names of the form fields, shared with the Slack layer so that errors land under the right block. */
export const PAYOUT_FIELDS = {
  phone: 'phone',
  name: 'name',
  countryCode: 'countryCode',
  operator: 'operator',
  accountNumber: 'accountNumber',
  bankCode: 'bankCode',
  amount: 'amount',
  currency: 'currency',
  reference: 'reference',
  note: 'note',
} as const;
export type PayoutFieldName = keyof typeof PAYOUT_FIELDS;

/**
 * What is wrong with one field, as a code and the data a message needs (amounts in minor units with
 * their currency, never formatted): the Slack layer words it in the reader's language.
 */
export type FieldProblem =
  | AmountProblem
  | { code: 'amount_no_maximum'; currency: string }
  | { code: 'amount_over_maximum'; maxMinor: number; currency: string }
  /** The Fleet API takes a JSON number: beyond about 15 significant digits it is not sent exactly. */
  | { code: 'amount_not_exact' }
  /** The field is empty (phone, name, account number). */
  | { code: 'required' }
  | { code: 'hidden_characters'; kind: HiddenCharacterKind }
  | { code: 'phone_letters' }
  | { code: 'phone_characters' }
  | { code: 'phone_length'; min: number; max: number }
  | { code: 'name_length'; min: number; max: number }
  | { code: 'country_code' }
  /** A wallet number must start with its country's calling code (spec §2.3): `243…` for CD. */
  | { code: 'phone_country_prefix'; countryCode: string; prefix: string }
  /** A wallet in a country the app knows no calling code for (calling-codes.ts), so its number cannot be checked. */
  | { code: 'country_no_calling_code'; countryCode: string }
  | { code: 'account_number_characters' }
  | { code: 'account_number_length'; min: number; max: number }
  | { code: 'bank_code' }
  | { code: 'note_too_long'; max: number }
  /** A currency or operator the configuration does not offer. */
  | { code: 'not_offered'; allowed: readonly string[] }
  | { code: 'reference_format'; min: number; max: number }
  | { code: 'reference_missing' }
  | { code: 'reference_used' }
  /** Kept for a payout still to come of a series or a bulk payout (`reserved-references.ts`). */
  | { code: 'reference_reserved'; reservedFor: ReservedReference }
  /** A policy refusal shown under a field (the daily limit under the amount). */
  | { code: 'refused'; refusal: { code: PayoutRefusalCode; details?: RefusalDetails | undefined } }
  | { code: 'check_value' };

/** One problem per field that has one. */
export type FieldErrors = Partial<Record<PayoutFieldName, FieldProblem>>;

/** What a person tried when a refusal is told: the same code reads differently per action. */
export type RefusedAction = 'request' | 'approve' | 'reject' | 'cancel' | 'retry' | 'decide_match';

/** A finer reason inside one refusal code, when the code alone does not say enough. */
export type RefusalCause =
  /** `not_cancellable`: someone other than the requester tried; or it already has an approval. */
  | 'not_requester'
  | 'has_approval'
  /** `not_retryable`: the first attempt is still being looked for; the requester may no longer request; roles could not be read. */
  | 'still_searching'
  | 'requester_not_allowed'
  | 'roles_unavailable'
  /** `no_such_match`: the proposed transaction is no longer the one proposed. */
  | 'match_gone'
  /** `reason_required`: too short, or too long. */
  | 'too_short'
  | 'too_long'
  /** `over_max_amount` / `over_daily_limit`: the currency has no setting at all. */
  | 'not_configured';

/**
 * The facts a refusal is told with: ids, states, amounts as exact minor units with their currency.
 * Never a sentence: the Slack layer writes them in the reader's language and number format.
 */
export interface RefusalDetails {
  payoutId?: string;
  /** The request's state when it had moved on (`not_pending`, `not_retryable`, `no_such_match`). */
  state?: PayoutState;
  action?: RefusedAction;
  cause?: RefusalCause;
  /** Which limit, in minor units of `currency`. */
  maxMinor?: number;
  limitMinor?: number;
  leftMinor?: number;
  currency?: string;
  /** Why the Fleet API's transactions could not be read, as the Fleet client said it (for `could_not_check`). */
  searchProblem?: string;
  /** How many approvers must agree (`already_approved` on a retry). */
  requiredApprovals?: number;
  /** `duplicate_reference`: the series or bulk payout the reference is kept for. */
  reservedFor?: ReservedReference;
}

/** Whose a kept reference is: a series' occurrence, or a bulk payout's row (`reserved-references.ts`). */
export type ReservedReference = { kind: 'series'; requestId: string; number: number } | { kind: 'bulk'; batchId: string; row: number };

export interface PayoutRefusal {
  ok: false;
  code: PayoutRefusalCode;
  details?: RefusalDetails;
  /** Per-field problems when `code` is `invalid`, `duplicate_reference` or `over_max_amount`. */
  errors?: FieldErrors;
  /** The request as stored now, when there is one: lets the caller refresh a stale message. */
  request?: PayoutRequest;
}

export type PayoutActionResult = { ok: true; request: PayoutRequest } | PayoutRefusal;

export function refusal(code: PayoutRefusalCode, extra: Omit<PayoutRefusal, 'ok' | 'code'> = {}): PayoutRefusal {
  return { ok: false, code, ...extra };
}
