/**
 * Who has been paid before: the identity of a payout's recipient, the recipients already paid (one
 * query for many, so that a batch of payouts is checked at once), and the two facts the approval
 * screens show, "new recipient" and "known under another name".
 */
import type { Queryable } from '../store/db.js';
import type { BankAccountRecipient, MobileMoneyRecipient } from './model.js';

/**
 * One recipient across payouts. Stricter than `recipientKey` (the day totals' key) for wallets: a
 * phone number with another operator is another recipient, since the operator decides where the
 * money lands. A bank account is its bank (the BIC's first 8 characters) and its account number
 * without leading zeros, as for the day totals. Migration 012 computes the same identity in SQL.
 */
export type RecipientIdentity = string;

/** The parts of a draft (or a saved recipient) that name its recipient. */
export type RecipientOf =
  | { kind: 'mobile_money'; recipient: MobileMoneyRecipient; operator: string }
  | { kind: 'bank_account'; recipient: BankAccountRecipient };

export function recipientIdentity(draft: RecipientOf): RecipientIdentity {
  if (draft.kind === 'mobile_money') return `mobile:${draft.recipient.phone}:${draft.operator}`;
  const account = draft.recipient.accountNumber.replace(/^0+/, '');
  return `bank:${draft.recipient.bankCode.slice(0, 8)}:${account}`;
}

/** A recipient some completed payout went to. */
export interface KnownRecipient {
  identity: RecipientIdentity;
  /** The recipient name of its last completed payout. */
  lastName: string;
  lastPayoutId: string;
  lastPaidAt: Date;
  /** Taken off the saved list by a requester; it was paid all the same, so it stays known. */
  removed: boolean;
}

interface KnownRow {
  identity: string;
  recipient_name: string;
  last_payout_id: string;
  last_paid_at: Date | string;
  removed_at: Date | string | null;
}

/** The recipients among `identities` that a completed payout went to, in one query. */
export async function findKnownRecipients(q: Queryable, identities: readonly RecipientIdentity[]): Promise<Map<RecipientIdentity, KnownRecipient>> {
  const distinct = [...new Set(identities)];
  if (distinct.length === 0) return new Map();
  const { rows } = await q.query<KnownRow>(
    'SELECT identity, recipient_name, last_payout_id, last_paid_at, removed_at FROM saved_recipients WHERE identity = ANY($1::text[])',
    [distinct],
  );
  return new Map(rows.map((row) => [row.identity, {
    identity: row.identity,
    lastName: row.recipient_name,
    lastPayoutId: row.last_payout_id,
    lastPaidAt: row.last_paid_at instanceof Date ? row.last_paid_at : new Date(row.last_paid_at),
    removed: row.removed_at !== null,
  }]));
}

/** No completed payout went to this draft's recipient. */
export function isNewRecipient(draft: RecipientOf, known: ReadonlyMap<RecipientIdentity, KnownRecipient>): boolean {
  return !known.has(recipientIdentity(draft));
}

/**
 * The name the recipient was last paid under, when the draft names them otherwise (the Fleet API
 * cannot check names, so a person must). Case, accents' composition and runs of spaces do not count.
 */
export function nameChanged(draft: RecipientOf, known: ReadonlyMap<RecipientIdentity, KnownRecipient>): string | undefined {
  const last = known.get(recipientIdentity(draft));
  if (!last) return undefined;
  return sameName(last.lastName, draft.recipient.name) ? undefined : last.lastName;
}

export function sameName(a: string, b: string): boolean {
  const plain = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('en');
  return plain(a) === plain(b);
}

/** What a payout's approvers are told about its recipient. */
export interface RecipientCheck {
  newRecipient: boolean;
  /** Set when the recipient is known under another name. */
  previousName: string | undefined;
}

export function checkRecipient(draft: RecipientOf, known: ReadonlyMap<RecipientIdentity, KnownRecipient>): RecipientCheck {
  return { newRecipient: isNewRecipient(draft, known), previousName: nameChanged(draft, known) };
}

/** `checkRecipient` for one draft, reading the store. */
export async function checkOneRecipient(q: Queryable, draft: RecipientOf): Promise<RecipientCheck> {
  return checkRecipient(draft, await findKnownRecipients(q, [recipientIdentity(draft)]));
}
