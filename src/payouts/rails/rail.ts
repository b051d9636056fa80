/**
 * What differs between the ways a payout reaches its recipient (a mobile money wallet, a bank
 * account): each rail answers it for its own kind, and `index.ts` keys them by `PayoutKind`, so a
 * kind without its rail does not compile.
 */
import { z } from 'zod';
import type { FleetApi, PayoutResult } from '../../fleet/schemas.js';
import type { PayoutFormFields, PayoutValidationSettings } from '../form-schemas.js';
import type { FieldProblem, PayoutDraft, PayoutDraftCommon, PayoutFieldName, PayoutKind, RecipientField } from '../model.js';

export type DraftOf<K extends PayoutKind> = Extract<PayoutDraft, { kind: K }>;

/** The part of a draft, a request or a saved recipient that says where the money goes: its kind, its recipient and the rail's own details. */
export type RecipientPart<K extends PayoutKind = PayoutKind> = K extends PayoutKind ? Omit<DraftOf<K>, keyof PayoutDraftCommon> : never;

/** The details of a recipient that decide where the money lands, by field (`phone`, `operator`, …). */
export type RecipientDetails = { kind: PayoutKind } & Partial<Record<RecipientField, string>>;

/** The columns a stored request, bulk row or saved recipient keeps a rail's details in. */
export interface RecipientColumns {
  phone: string | null;
  operator: string | null;
  account_number: string | null;
  bank_code: string | null;
}

/** A bulk file's two rail-specific cells: the number (phone or account) and the provider (operator or bank). */
export interface BulkCells {
  number?: string | undefined;
  provider?: string | undefined;
}

/** Checks one form field with a schema, recording its problem; the value when it passes. */
export type FieldCheck = <T extends string | number>(field: PayoutFieldName, schema: z.ZodType<T, unknown>) => T | undefined;

/** The values of a payout every rail shares, checked. */
export type CheckedCommon = PayoutDraftCommon & { recipient: { name: string; countryCode: string } };

/** Bounded text in a draft that travelled through Slack: never trusted, only read back to be checked again. */
export const travelledText = (max: number) => z.string().max(max);

/** The values of a travelled draft every rail shares. */
export const TRAVELLED_COMMON = {
  amountMinor: z.number().int().positive(),
  currency: travelledText(10),
  reference: travelledText(100),
  note: travelledText(2000),
  referenceGenerated: z.boolean().optional(),
};

export interface PayoutRail<K extends PayoutKind> {
  readonly kind: K;
  /** The words that name it after `/fleet payout` (any case). */
  readonly commandWords: readonly string[];
  /** The words that name it in a bulk file's kind column (any case); the first is the one the app writes. */
  readonly bulkWords: readonly string[];
  /** The form's fields, in the order they are shown. */
  readonly formFields: readonly PayoutFieldName[];
  /** The details that decide where the money lands, in the form's order. */
  readonly destinationFields: readonly RecipientField[];

  /** Checks the rail's own fields; returns the problems found across fields (they replace a field's own). */
  checkFields(check: FieldCheck, settings: PayoutValidationSettings, countryCode: string | undefined): Partial<Record<PayoutFieldName, FieldProblem>>;
  /** The draft from the checked values: `value` reads one of the rail's own fields. */
  draft(value: (field: PayoutFieldName) => string, common: CheckedCommon): DraftOf<K>;
  /** The form values of its own fields for a draft or a saved recipient (name and country are shared). */
  formValues(part: RecipientPart<K>): PayoutFormFields;
  /** Its own fields read from the words before the amount in `/fleet payout <kind> …` (never empty). */
  prefill(tokens: readonly string[]): PayoutFormFields;
  /** How many words name the recipient before a space-grouped amount, when they clearly do. */
  groupedAmountStart(tokens: readonly string[]): number | undefined;
  /** Its own fields from a bulk row's cells, and back. */
  bulkFields(cells: BulkCells): PayoutFormFields;
  bulkCells(part: RecipientPart<K>): { number: string; provider: string };

  /** The recipient's key for day totals and possible duplicates (`recipients.ts`). */
  recipientKey(part: RecipientPart<K>): string;
  /** The recipient's identity for new and saved recipients (`recipients.ts`). */
  recipientIdentity(part: RecipientPart<K>): string;
  details(part: RecipientPart<K>): RecipientDetails;
  /** A copy of the part, without anything else the value holds. */
  recipientPart(part: RecipientPart<K>): RecipientPart<K>;
  /** The operator that carries the payout, or null for a rail without one. */
  operatorOf(part: RecipientPart<K>): string | null;
  /** Whether the settings of now still offer what the payout goes through (an operator). */
  offered(part: RecipientPart<K>, settings: Pick<PayoutValidationSettings, 'operators'>): boolean;

  /** The stored columns, and back. */
  columns(part: RecipientPart<K>): RecipientColumns;
  fromColumns(columns: RecipientColumns, recipient: { name: string; countryCode: string }): RecipientPart<K>;

  /** A draft of this kind read back from a modal's metadata (checked again before it is stored). */
  readonly travelled: z.ZodType<DraftOf<K>>;

  /** The one POST that moves the money; never retried. */
  send(fleet: FleetApi, draft: DraftOf<K>, common: { amount: number; currency: string; reference: string }): Promise<PayoutResult>;
}
