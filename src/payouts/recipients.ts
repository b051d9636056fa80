/**
 * Who a payout goes to, and who has been paid before: the two keys of a recipient (`recipientKey`
 * for the day totals, `recipientIdentity` for new and saved recipients), the recipients already paid
 * (one query for many, so that a batch of payouts is checked at once), and the two facts the approval
 * screens show, "new recipient" and "known under another name".
 */
import type { Queryable } from '../store/db.js';
import type { BankAccountRecipient, MobileMoneyRecipient, PayoutDraft } from './model.js';

/**
 * A bank account: its BIC and its account number as validated (no spaces, upper case). An 8-character
 * BIC names the bank's head office, the same as that BIC with `XXX`; any other branch code is another
 * BIC. Leading zeros are part of the account number (`0012345678` and `12345678` are two accounts).
 * Migration 014 computes the same text in SQL (`bankAccountKeySql`); keep the two equal.
 */
function bankAccountKey(recipient: Pick<BankAccountRecipient, 'accountNumber' | 'bankCode'>): string {
  const { bankCode, accountNumber } = recipient;
  const bic = bankCode.length === 11 && bankCode.endsWith('XXX') ? bankCode.slice(0, 8) : bankCode;
  return `bank:${bic}:${accountNumber}`;
}

/**
 * The recipient's key for the day totals (dual approval by the recipient's total, across requests
 * and requesters) and for the possible-duplicate rule (duplicates.ts): a wallet by its phone number
 * alone, since a number is one person's wallet and another operator code must neither split a total
 * nor hide a repeat; a bank account as `bankAccountKey`. Stored as `payout_requests.recipient_key`
 * and `payout_batch_rows.recipient_key`.
 */
export function recipientKey(draft: PayoutDraft): string {
  if (draft.kind === 'mobile_money') return `mobile:${draft.recipient.phone}`;
  return bankAccountKey(draft.recipient);
}

/**
 * The recipient's identity for "was this recipient ever paid" (the new-recipient rule, the saved
 * recipients and their "known under another name"): stricter than `recipientKey` for wallets, since the
 * operator decides where the money lands, so a known number with another operator is a recipient
 * never paid. A bank account as `bankAccountKey`. Stored as `saved_recipients.identity`.
 */
export type RecipientIdentity = string;

/** The parts of a draft (or a saved recipient) that name its recipient. */
export type RecipientOf =
  | { kind: 'mobile_money'; recipient: MobileMoneyRecipient; operator: string }
  | { kind: 'bank_account'; recipient: BankAccountRecipient };

export function recipientIdentity(draft: RecipientOf): RecipientIdentity {
  if (draft.kind === 'mobile_money') return `mobile:${draft.recipient.phone}:${draft.operator}`;
  return bankAccountKey(draft.recipient);
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

function checkRecipient(draft: RecipientOf, known: ReadonlyMap<RecipientIdentity, KnownRecipient>): RecipientCheck {
  return { newRecipient: isNewRecipient(draft, known), previousName: nameChanged(draft, known) };
}

/** `checkRecipient` for one draft, reading the store. */
export async function checkOneRecipient(q: Queryable, draft: RecipientOf): Promise<RecipientCheck> {
  return checkRecipient(draft, await findKnownRecipients(q, [recipientIdentity(draft)]));
}
