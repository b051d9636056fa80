/**
 * Who a payout goes to, and who has been paid before: the two keys of a recipient (`recipientKey`
 * for the day totals, `recipientIdentity` for new and saved recipients), the recipients already paid
 * (one query for many, so that a batch of payouts is checked at once), and the three facts the approval
 * screens show, "new recipient", "known under another name" and "changed from the saved recipient picked".
 */
import type { Queryable } from '../store/db.js';
import type { ChangedDetails, PayoutDraft, RecipientField } from './model.js';
import { headOfficeBic, railOf, storedRail, type RecipientDetails, type RecipientPart } from './rails/index.js';

/**
 * The recipient's key for the day totals (dual approval by the recipient's total, across requests
 * and requesters) and for the possible-duplicate rule (duplicates.ts): a wallet by its phone number
 * alone, since a number is one person's wallet and another operator code must neither split a total
 * nor hide a repeat; a bank account as `bankAccountKey` (`rails/bank-account.ts`). Stored as
 * `payout_requests.recipient_key` and `payout_batch_rows.recipient_key`.
 */
export function recipientKey(draft: PayoutDraft): string {
  return railOf(draft.kind).recipientKey(draft);
}

/**
 * The recipient's identity for "was this recipient ever paid" (the new-recipient rule, the saved
 * recipients and their "known under another name"): stricter than `recipientKey` for wallets, since the
 * operator decides where the money lands, so a known number with another operator is a recipient
 * never paid. A bank account as `bankAccountKey` (`rails/bank-account.ts`). Stored as
 * `saved_recipients.identity`.
 */
export type RecipientIdentity = string;

/** The parts of a draft (or a saved recipient) that name its recipient. */
export type RecipientOf = RecipientPart;

export function recipientIdentity(draft: RecipientOf): RecipientIdentity {
  return railOf(draft.kind).recipientIdentity(draft);
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
  /** The details it was last paid with. */
  details: RecipientDetails;
}

interface KnownRow {
  identity: string;
  recipient_name: string;
  last_payout_id: string;
  last_paid_at: Date | string;
  removed_at: Date | string | null;
  kind: string;
  phone: string | null;
  operator: string | null;
  account_number: string | null;
  bank_code: string | null;
}

/** The recipients among `identities` that a completed payout went to, in one query. */
export async function findKnownRecipients(q: Queryable, identities: readonly RecipientIdentity[]): Promise<Map<RecipientIdentity, KnownRecipient>> {
  const distinct = [...new Set(identities)];
  if (distinct.length === 0) return new Map();
  const { rows } = await q.query<KnownRow>(
    `SELECT identity, recipient_name, last_payout_id, last_paid_at, removed_at, kind, phone, operator, account_number, bank_code
     FROM saved_recipients WHERE identity = ANY($1::text[])`,
    [distinct],
  );
  return new Map(
    rows.map((row) => [
      row.identity,
      {
        identity: row.identity,
        lastName: row.recipient_name,
        lastPayoutId: row.last_payout_id,
        lastPaidAt: row.last_paid_at instanceof Date ? row.last_paid_at : new Date(row.last_paid_at),
        removed: row.removed_at !== null,
        details: detailsOf(storedRail(row.kind).fromColumns(row, { name: row.recipient_name, countryCode: '' })),
      },
    ]),
  );
}

function detailsOf(draft: RecipientOf): RecipientDetails {
  return railOf(draft.kind).details(draft);
}

/**
 * What changed when the draft was filled from the saved recipient `saved` (read on the server: the
 * form only names it) and then edited: undefined when it still goes where `saved` went (an 8-letter BIC
 * and the same with XXX are one bank), or when `saved` is of another kind. The edited details are
 * named when they are another known recipient's (`known`, read with `saved`); otherwise they are new.
 */
function changedDetails(
  draft: RecipientOf,
  saved: KnownRecipient | undefined,
  known: ReadonlyMap<RecipientIdentity, KnownRecipient>,
): ChangedDetails | undefined {
  const identity = recipientIdentity(draft);
  if (!saved || saved.identity === identity || saved.details.kind !== draft.kind) return undefined;
  const before: RecipientDetails = saved.details;
  const after: RecipientDetails = detailsOf(draft);
  const fields = railOf(draft.kind).destinationFields;
  const same = (field: RecipientField, a: string, b: string) => (field === 'bankCode' ? headOfficeBic(a) === headOfficeBic(b) : a === b);
  const changes = fields
    .map((field) => ({ field, from: before[field] ?? '', to: after[field] ?? '' }))
    .filter((change) => !same(change.field, change.from, change.to));
  const other = known.get(identity);
  return {
    saved: { identity: saved.identity, name: saved.lastName },
    changes,
    matches: other ? { name: other.lastName, lastPayoutId: other.lastPayoutId } : undefined,
  };
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
  /** Set when the draft was filled from a saved recipient and its details then edited. */
  changedDetails: ChangedDetails | undefined;
}

/**
 * What approvers are told about one draft's recipient, in one read of the store. `filledFrom`: the
 * saved recipient the form was filled from, only a claim from the client, read again here.
 */
export async function checkOneRecipient(q: Queryable, draft: RecipientOf, filledFrom?: RecipientIdentity): Promise<RecipientCheck> {
  const picked = filledFrom?.slice(0, 200);
  const known = await findKnownRecipients(q, picked === undefined ? [recipientIdentity(draft)] : [recipientIdentity(draft), picked]);
  return {
    newRecipient: isNewRecipient(draft, known),
    previousName: nameChanged(draft, known),
    changedDetails: changedDetails(draft, picked === undefined ? undefined : known.get(picked), known),
  };
}
