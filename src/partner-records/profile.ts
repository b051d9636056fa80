/**
 * An import profile: how one source's export (a bank, a mobile-money provider, an accounting
 * system) writes its records, so that the file is read as exported. Plain data validated by
 * `IMPORT_PROFILE`, so it can be kept as JSON per team. Nothing in a profile is guessed from the file.
 */
import { z } from 'zod';

/** A column: its 1-based position, its header name, or any of several header names (case and accents as written, compared without case). */
const COLUMN = z.union([z.number().int().min(1).max(1000), z.string().trim().min(1).max(80), z.array(z.string().trim().min(1).max(80)).min(1).max(10)]);
export type ColumnRef = z.infer<typeof COLUMN>;

export const DATE_FORMATS = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY', 'DD-MMM-YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

const WORDS = z.array(z.string().trim().min(1).max(40)).min(1).max(20);

const AMOUNT = z.discriminatedUnion('layout', [
  /** One column, negative for money out. */
  z.object({ layout: z.literal('signed'), amount: COLUMN }),
  /** Money out in one column, money in in the other; a row fills one of them. */
  z.object({ layout: z.literal('debit_credit'), debit: COLUMN, credit: COLUMN }),
  /**
   * An unsigned amount and a flag saying its direction (`D`/`C`, `out`/`in`). With `flagRequired`
   * false, an empty flag (or a file without the flag column) leaves the amount's sign as written.
   */
  z.object({ layout: z.literal('flagged'), amount: COLUMN, flag: COLUMN, inWords: WORDS, outWords: WORDS, flagRequired: z.boolean() }),
]);

const CURRENCY = z.union([z.object({ column: COLUMN }), z.object({ fixed: z.string().regex(/^[A-Z]{3}$/) })]);

const PROFILE_FIELDS = z.object({
  name: z.string().trim().min(1).max(40),
  delimiter: z.enum([',', ';', '\t']),
  encoding: z.enum(['utf-8', 'utf-16', 'windows-1252', 'iso-8859-1']),
  /** Lines above the header (or above the first record without one), and below the last record; blank lines are not counted. */
  skipAbove: z.number().int().min(0).max(100),
  skipBelow: z.number().int().min(0).max(100),
  header: z.boolean(),
  reference: COLUMN,
  date: z.object({ column: COLUMN, format: z.enum(DATE_FORMATS) }),
  /** IANA zone in which the file's times are written. */
  timeZone: z.string().refine(isTimeZone, 'unknown time zone'),
  amount: AMOUNT,
  numbers: z
    .object({ decimalMark: z.enum(['.', ',']), grouping: z.enum(['none', ',', '.', ' ', "'"]) })
    .refine((numbers) => numbers.grouping !== numbers.decimalMark, 'the decimal mark cannot also group thousands'),
  currency: CURRENCY,
  /** Only rows whose status is one of `counted` are records; the others are left out and listed. */
  status: z.object({ column: COLUMN, counted: WORDS }).optional(),
  description: COLUMN.optional(),
  note: COLUMN.optional(),
});

export const IMPORT_PROFILE = PROFILE_FIELDS.refine((profile) => profile.header || columnsOf(profile).every((column) => typeof column === 'number'), {
  message: 'a file without a header row names its columns by position',
});

export type ImportProfile = z.infer<typeof IMPORT_PROFILE>;

/** Every column a profile names. */
export function columnsOf(
  profile: Pick<z.infer<typeof PROFILE_FIELDS>, 'reference' | 'date' | 'amount' | 'currency' | 'status' | 'description' | 'note'>,
): ColumnRef[] {
  const { amount } = profile;
  const amountColumns =
    amount.layout === 'signed' ? [amount.amount] : amount.layout === 'debit_credit' ? [amount.debit, amount.credit] : [amount.amount, amount.flag];
  return [
    profile.reference,
    profile.date.column,
    ...amountColumns,
    ...('column' in profile.currency ? [profile.currency.column] : []),
    ...(profile.status ? [profile.status.column] : []),
    ...(profile.description === undefined ? [] : [profile.description]),
    ...(profile.note === undefined ? [] : [profile.note]),
  ];
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The layout `/fleet reconcile` documents today, as a profile: commas, UTF-8, a header naming
 * `reference`, `date` (ISO, with an optional time and offset), a signed `amount`, `currency`, an
 * optional `direction` and `note`, in English or French. The file's times are read in `timeZone`
 * (LEDGER_TIMEZONE).
 */
export function defaultProfile(timeZone: string): ImportProfile {
  return {
    name: 'default',
    delimiter: ',',
    encoding: 'utf-8',
    skipAbove: 0,
    skipBelow: 0,
    header: true,
    reference: ['reference', 'référence'],
    date: { column: 'date', format: 'YYYY-MM-DD' },
    timeZone,
    amount: {
      layout: 'flagged',
      amount: ['amount', 'montant'],
      flag: ['direction', 'sens'],
      inWords: ['in', 'entrée', 'entree'],
      outWords: ['out', 'sortie'],
      flagRequired: false,
    },
    numbers: { decimalMark: '.', grouping: 'none' },
    currency: { column: ['currency', 'devise'] },
    note: 'note',
  };
}
