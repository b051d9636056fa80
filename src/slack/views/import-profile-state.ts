/**
 * The import profile builder's data: the draft its modal is filled from (a saved profile, or what
 * the person has chosen so far), and the profile read back from the submitted modal, each problem
 * under its input's block. Columns are chosen by position in the uploaded file; with a header row
 * the profile names them by the header's text, so that the next export is read by its names.
 */
import { textsFor, type Locale } from '../../i18n/index.js';
import { DATE_FORMATS, IMPORT_PROFILE, type ColumnRef, type DateFormat, type ImportProfile } from '../../partner-records/profile.js';
import { dateFormatsReading, type FileSample } from '../../partner-records/profile-sample.js';
import { PROFILE } from '../ids.js';
import { plainWithin } from './text.js';

type AmountLayout = ImportProfile['amount']['layout'];
type Numbers = ImportProfile['numbers'];

interface ProfileFields {
  name: string;
  delimiter: ImportProfile['delimiter'];
  encoding: ImportProfile['encoding'];
  skipAbove: number;
  skipBelow: number;
  header: boolean;
  reference: ColumnRef;
  date: ColumnRef;
  dateFormat: DateFormat;
  timeZone: string;
  amountLayout: AmountLayout;
  /** The signed amount, or the unsigned one beside a direction. */
  amount: ColumnRef;
  debit: ColumnRef;
  credit: ColumnRef;
  flag: ColumnRef;
  inWords: string[];
  outWords: string[];
  flagRequired: boolean;
  decimalMark: Numbers['decimalMark'];
  grouping: Numbers['grouping'];
  currencyKind: 'column' | 'fixed';
  currencyColumn: ColumnRef;
  /** The one currency of a file without a currency column. */
  currency: string;
  status: ColumnRef;
  counted: string[];
  description: ColumnRef;
  note: ColumnRef;
}

/** What the modal is filled from: a profile's fields, any of them not chosen yet. */
export type ProfileDraft = Partial<ProfileFields>;
export type ProfileField = keyof ProfileFields;
export type ColumnField = 'reference' | 'date' | 'amount' | 'debit' | 'credit' | 'flag' | 'currencyColumn' | 'status' | 'description' | 'note';

/** Slack's `view.state.values`, as far as this modal reads it (Bolt's `ViewOutput['state']['values']` fits). */
export type ViewStateValues = Record<
  string,
  Record<string, { value?: string | null; selected_option?: { value: string } | null; selected_options?: Array<{ value: string }> } | undefined> | undefined
>;

export type ProfileFromState = { ok: true; profile: ImportProfile } | { ok: false; errors: Record<string, string> };

/** Every field has its block. */
export const PROFILE_BLOCKS: Record<ProfileField, string> = PROFILE.blocks;
const REBUILD: Partial<Record<ProfileField, string>> = PROFILE.rebuild;

/** The action_id of a field's input: its own for those that rebuild the modal, `value` for the others. */
export function actionOf(field: ProfileField): string {
  return REBUILD[field] ?? PROFILE.input;
}

/** Option values of the choices whose characters are awkward as values (a tab, a space). */
export const CHOICES = {
  delimiter: { comma: ',', semicolon: ';', tab: '\t' },
  decimalMark: { dot: '.', comma: ',' },
  grouping: { none: 'none', comma: ',', dot: '.', space: ' ', apostrophe: "'" },
} as const satisfies {
  delimiter: Record<string, ProfileFields['delimiter']>;
  decimalMark: Record<string, Numbers['decimalMark']>;
  grouping: Record<string, Numbers['grouping']>;
};
export const ENCODINGS = ['utf-8', 'utf-16', 'windows-1252', 'iso-8859-1'] as const satisfies ReadonlyArray<ProfileFields['encoding']>;
export const AMOUNT_LAYOUTS = ['signed', 'debit_credit', 'flagged'] as const satisfies readonly AmountLayout[];
/** The value of a column select's "None" option (an optional column left out). */
export const NO_COLUMN = 'none';
const FLAG_REQUIRED = 'required';
const NAME_MAX = 40;
const WORD_MAX = 40;
const WORDS_MAX = 20;
const COLUMN_NAME_MAX = 80;
/** Columns offered in a list, beside "None" (Slack lists at most 100 options); a wider file has its columns typed. */
export const LISTED_COLUMNS_MAX = 99;
const OPTIONAL_COLUMNS: ReadonlySet<ColumnField> = new Set(['status', 'description', 'note']);

/** A column name as the reader compares it. */
export const columnKey = (text: string) => text.trim().toLowerCase().normalize('NFC');

const withoutUndefined = (draft: ProfileDraft): ProfileDraft => Object.fromEntries(Object.entries(draft).filter(([, value]) => value !== undefined));

/** A new profile's draft: the usual layout, the file's times in the ledger's zone; the columns left to choose. */
export function newDraft(ledgerTimeZone: string): ProfileDraft {
  return {
    delimiter: ',',
    encoding: 'utf-8',
    skipAbove: 0,
    skipBelow: 0,
    header: true,
    timeZone: ledgerTimeZone,
    amountLayout: 'signed',
    flagRequired: false,
    decimalMark: '.',
    grouping: 'none',
    currencyKind: 'column',
  };
}

export function draftFromProfile(profile: ImportProfile): ProfileDraft {
  const { amount, currency, status } = profile;
  const draft: ProfileDraft = {
    name: profile.name,
    delimiter: profile.delimiter,
    encoding: profile.encoding,
    skipAbove: profile.skipAbove,
    skipBelow: profile.skipBelow,
    header: profile.header,
    reference: profile.reference,
    date: profile.date.column,
    dateFormat: profile.date.format,
    timeZone: profile.timeZone,
    amountLayout: amount.layout,
    decimalMark: profile.numbers.decimalMark,
    grouping: profile.numbers.grouping,
    description: profile.description,
    note: profile.note,
  };
  const amountFields: ProfileDraft =
    amount.layout === 'debit_credit'
      ? { debit: amount.debit, credit: amount.credit }
      : amount.layout === 'flagged'
        ? { amount: amount.amount, flag: amount.flag, inWords: amount.inWords, outWords: amount.outWords, flagRequired: amount.flagRequired }
        : { amount: amount.amount };
  const currencyFields: ProfileDraft =
    'column' in currency ? { currencyKind: 'column', currencyColumn: currency.column } : { currencyKind: 'fixed', currency: currency.fixed };
  const statusFields: ProfileDraft = status ? { status: status.column, counted: status.counted } : {};
  return withoutUndefined({ ...draft, ...amountFields, ...currencyFields, ...statusFields });
}

type StateEntry = NonNullable<NonNullable<ViewStateValues[string]>[string]>;
const entryOf = (values: ViewStateValues, field: ProfileField, action = actionOf(field)): StateEntry | undefined => values[PROFILE_BLOCKS[field]]?.[action];
const chosenIn = (values: ViewStateValues, field: ProfileField) => entryOf(values, field)?.selected_option?.value ?? undefined;
const typedIn = (values: ViewStateValues, field: ProfileField) => entryOf(values, field)?.value?.trim() || undefined;
const wordsIn = (values: ViewStateValues, field: ProfileField) =>
  typedIn(values, field)
    ?.split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
const keyFor = <V extends string>(choices: Record<string, V>, key: string | undefined): V | undefined =>
  key !== undefined && Object.hasOwn(choices, key) ? choices[key] : undefined;
const oneOf = <V extends string>(choices: readonly V[], value: string | undefined): V | undefined => choices.find((choice) => choice === value);
const countIn = (value: string | undefined) => (value !== undefined && /^\d{1,3}$/.test(value) ? Number(value) : undefined);

/** A column as the modal gives it: a position chosen in the list, or a number or name typed. */
function columnIn(values: ViewStateValues, field: ColumnField): ColumnRef | undefined {
  const block = values[PROFILE_BLOCKS[field]];
  const chosen = block?.[actionOf(field)]?.selected_option?.value;
  if (chosen !== undefined) return chosen === NO_COLUMN ? undefined : countIn(chosen);
  const typed = block?.[PROFILE.typedColumn]?.value?.trim();
  if (!typed) return undefined;
  return /^\d{1,4}$/.test(typed) ? Number(typed) : typed;
}

/** What the person has chosen so far, for the modal to be built again after a change. */
export function draftFromState(values: ViewStateValues): ProfileDraft {
  const draft: ProfileDraft = {
    name: typedIn(values, 'name'),
    delimiter: keyFor(CHOICES.delimiter, chosenIn(values, 'delimiter')),
    encoding: oneOf(ENCODINGS, chosenIn(values, 'encoding')),
    skipAbove: countIn(chosenIn(values, 'skipAbove')),
    skipBelow: countIn(chosenIn(values, 'skipBelow')),
    header: chosenIn(values, 'header') === 'yes' ? true : chosenIn(values, 'header') === 'no' ? false : undefined,
    dateFormat: oneOf(DATE_FORMATS, chosenIn(values, 'dateFormat')),
    timeZone: chosenIn(values, 'timeZone'),
    amountLayout: oneOf(AMOUNT_LAYOUTS, chosenIn(values, 'amountLayout')),
    inWords: wordsIn(values, 'inWords'),
    outWords: wordsIn(values, 'outWords'),
    decimalMark: keyFor(CHOICES.decimalMark, chosenIn(values, 'decimalMark')),
    grouping: keyFor(CHOICES.grouping, chosenIn(values, 'grouping')),
    currencyKind: oneOf(['column', 'fixed'] as const, chosenIn(values, 'currencyKind')),
    currency: chosenIn(values, 'currency'),
    counted: wordsIn(values, 'counted'),
  };
  // Read where the box is shown: ticked or not.
  const flagRequired = entryOf(values, 'flagRequired')?.selected_options;
  if (flagRequired) draft.flagRequired = flagRequired.some((option) => option.value === FLAG_REQUIRED);
  for (const field of ['reference', 'date', 'amount', 'debit', 'credit', 'flag', 'currencyColumn', 'status', 'description', 'note'] as const) {
    draft[field] = columnIn(values, field);
  }
  return withoutUndefined(draft);
}

/** The 1-based position in the sample of a column the draft names, or undefined when the sample has no such column. */
export function positionIn(sample: FileSample | undefined, ref: ColumnRef | undefined): number | undefined {
  if (ref === undefined || !sample) return undefined;
  if (typeof ref === 'number') return ref >= 1 && ref <= sample.columns.length ? ref : undefined;
  if (!sample.named) return undefined;
  const names = sample.columns.map(columnKey);
  for (const name of Array.isArray(ref) ? ref : [ref]) {
    const index = names.indexOf(columnKey(name));
    if (index !== -1) return index + 1;
  }
  return undefined;
}

/** How the profile names the column at `position`: its header text, or its position when the header gives no usable name (none, too long, repeated). */
export function columnRefFor(sample: FileSample | undefined, position: number): ColumnRef {
  if (!sample?.named) return position;
  const name = sample.columns[position - 1]?.trim() ?? '';
  const namesake = sample.columns.filter((column) => columnKey(column) === columnKey(name)).length;
  return name !== '' && name.length <= COLUMN_NAME_MAX && namesake === 1 ? name : position;
}

/** The roles the layout asks for, in the modal's order. */
export function columnFields(draft: ProfileDraft): ColumnField[] {
  const layout = draft.amountLayout;
  const amounts: ColumnField[] = layout === 'debit_credit' ? ['debit', 'credit'] : layout === 'flagged' ? ['amount', 'flag'] : layout ? ['amount'] : [];
  return ['reference', 'date', ...amounts, ...(draft.currencyKind === 'column' ? ['currencyColumn' as const] : []), 'status', 'description', 'note'];
}

/** The date column's values in the sample's first rows; a cell without a digit (a `Total` line) is no date. */
export function sampleDates(sample: FileSample | undefined, date: ColumnRef | undefined): string[] {
  const position = positionIn(sample, date);
  if (!sample || position === undefined) return [];
  return sample.firstRows.map((row) => (row[position - 1] ?? '').trim()).filter((value) => /\d/.test(value));
}

/** True when the sample's dates read both day first and month first. */
export function datesAmbiguous(dates: readonly string[]): boolean {
  const formats = dateFormatsReading(dates);
  return formats.includes('DD/MM/YYYY') && formats.includes('MM/DD/YYYY');
}

/** The submitted modal as a profile checked by `IMPORT_PROFILE`, or the problems by block id (for `response_action: 'errors'`). */
export function profileFromState(values: ViewStateValues, sample: FileSample | undefined, surface: { locale: Locale }): ProfileFromState {
  const t = textsFor(surface.locale);
  const draft = draftFromState(values);
  const errors = new Map<ProfileField, string>();
  const fail = (field: ProfileField, text: string) => {
    if (!errors.has(field)) errors.set(field, text);
  };
  if (!draft.name || draft.name.length > NAME_MAX) fail('name', t('profiles.error.name', { max: NAME_MAX }));
  for (const field of ['delimiter', 'encoding', 'skipAbove', 'skipBelow', 'header', 'amountLayout', 'decimalMark', 'grouping', 'currencyKind'] as const) {
    if (draft[field] === undefined) fail(field, t('profiles.error.choose'));
  }
  const columns = columnsFrom(values, draft, sample, t, fail);
  if (draft.dateFormat === undefined) {
    const dates = sampleDates(sample, draft.date);
    const ambiguous = dates.find((date) => datesAmbiguous([date]));
    fail('dateFormat', ambiguous ? t('profiles.error.dateFormatAmbiguous', { example: plainWithin(ambiguous, 20) }) : t('profiles.error.dateFormat'));
  }
  if (draft.timeZone === undefined) fail('timeZone', t('profiles.error.timeZone'));
  if (draft.decimalMark !== undefined && draft.decimalMark === draft.grouping) fail('grouping', t('profiles.error.grouping'));
  if (draft.amountLayout === 'flagged') {
    for (const field of ['inWords', 'outWords'] as const) checkWords(draft[field], (key) => fail(field, t(key, { max: WORDS_MAX, length: WORD_MAX })));
    const inWords = new Set(draft.inWords?.map(columnKey));
    const both = draft.outWords?.find((word) => inWords.has(columnKey(word)));
    if (both !== undefined) fail('outWords', t('profiles.error.wordBoth', { word: plainWithin(both, WORD_MAX) }));
  }
  if (columns.has('status')) checkWords(draft.counted, (key) => fail('counted', t(key, { max: WORDS_MAX, length: WORD_MAX })));
  else if (draft.counted) fail('status', t('profiles.error.countedWithoutStatus'));
  if (draft.currencyKind === 'fixed' && !/^[A-Z]{3}$/.test(draft.currency ?? '')) fail('currency', t('profiles.error.currency'));
  if (errors.size > 0) return failure(errors);

  const parsed = IMPORT_PROFILE.safeParse(candidateProfile(draft, columns));
  if (parsed.success) return { ok: true, profile: parsed.data };
  for (const issue of parsed.error.issues) {
    const field = fieldOfIssue(issue.path, draft);
    if (field === 'name') fail(field, t('profiles.error.name', { max: NAME_MAX }));
    else if (field === 'grouping') fail(field, t('profiles.error.grouping'));
    else if (field === 'header') fail(field, t('profiles.error.positions'));
    else if (field === 'inWords' || field === 'outWords' || field === 'counted')
      fail(field, t('profiles.error.wordsTooMany', { max: WORDS_MAX, length: WORD_MAX }));
    else fail(field, t('profiles.error.choose'));
  }
  return failure(errors);
}

function failure(errors: ReadonlyMap<ProfileField, string>): ProfileFromState {
  return { ok: false, errors: Object.fromEntries([...errors].map(([field, text]) => [PROFILE_BLOCKS[field], text])) };
}

type WordsProblem = 'profiles.error.words' | 'profiles.error.wordsTooMany';
function checkWords(words: string[] | undefined, fail: (key: WordsProblem) => void): void {
  if (!words || words.length === 0) fail('profiles.error.words');
  else if (words.length > WORDS_MAX || words.some((word) => word.length > WORD_MAX)) fail('profiles.error.wordsTooMany');
}

/** Each role's column as the profile will name it; a role left out, unknown or already taken is reported under its block. */
function columnsFrom(
  values: ViewStateValues,
  draft: ProfileDraft,
  sample: FileSample | undefined,
  t: ReturnType<typeof textsFor>,
  fail: (field: ProfileField, text: string) => void,
): Map<ColumnField, ColumnRef> {
  const columns = new Map<ColumnField, ColumnRef>();
  const taken = new Map<string, ColumnField>();
  const count = sample?.columns.length ?? 0;
  for (const field of columnFields(draft)) {
    const ref = draft[field];
    if (ref === undefined) {
      if (!OPTIONAL_COLUMNS.has(field)) fail(field, t('profiles.error.chooseColumn'));
      continue;
    }
    const position = positionIn(sample, ref);
    if (sample && count > 0 && position === undefined) {
      const typed = values[PROFILE_BLOCKS[field]]?.[PROFILE.typedColumn] !== undefined;
      if (typeof ref === 'number' && !typed) fail(field, t('profiles.error.columnOutside'));
      else if (typeof ref === 'string' && sample.named) fail(field, t('profiles.error.columnUnknown', { typed: plainWithin(String(ref), 40), count }));
      else fail(field, t('profiles.error.columnPosition', { count }));
      continue;
    }
    const key = position === undefined ? `name:${columnKey(String(ref))}` : `at:${position}`;
    const other = taken.get(key);
    if (other !== undefined) {
      fail(field, t('profiles.error.columnTwice', { role: t(`profiles.role.${other}`) }));
      continue;
    }
    taken.set(key, field);
    columns.set(field, position === undefined ? ref : columnRefFor(sample, position));
  }
  return columns;
}

/** The profile the draft describes, for `IMPORT_PROFILE` to check; only called once every choice is made. */
function candidateProfile(draft: ProfileDraft, columns: ReadonlyMap<ColumnField, ColumnRef>): unknown {
  const column = (field: ColumnField) => columns.get(field);
  const amount =
    draft.amountLayout === 'debit_credit'
      ? { layout: 'debit_credit', debit: column('debit'), credit: column('credit') }
      : draft.amountLayout === 'flagged'
        ? {
            layout: 'flagged',
            amount: column('amount'),
            flag: column('flag'),
            inWords: draft.inWords,
            outWords: draft.outWords,
            flagRequired: draft.flagRequired ?? false,
          }
        : { layout: 'signed', amount: column('amount') };
  const status = column('status');
  const [description, note] = [column('description'), column('note')];
  return {
    ...{ name: draft.name, delimiter: draft.delimiter, encoding: draft.encoding, skipAbove: draft.skipAbove, skipBelow: draft.skipBelow },
    ...{ header: draft.header, reference: column('reference'), date: { column: column('date'), format: draft.dateFormat }, timeZone: draft.timeZone },
    ...{ amount, numbers: { decimalMark: draft.decimalMark, grouping: draft.grouping } },
    currency: draft.currencyKind === 'fixed' ? { fixed: draft.currency } : { column: column('currencyColumn') },
    ...(status === undefined ? {} : { status: { column: status, counted: draft.counted } }),
    ...(description === undefined ? {} : { description }),
    ...(note === undefined ? {} : { note }),
  };
}

/** The block a schema issue belongs under. */
function fieldOfIssue(path: ReadonlyArray<PropertyKey>, draft: ProfileDraft): ProfileField {
  const [first, second] = path;
  if (first === 'date') return second === 'format' ? 'dateFormat' : 'date';
  if (first === 'amount') return typeof second === 'string' && second in PROFILE_BLOCKS && second !== 'layout' ? (second as ProfileField) : 'amountLayout';
  if (first === 'numbers') return 'grouping';
  if (first === 'currency') return draft.currencyKind === 'fixed' ? 'currency' : 'currencyColumn';
  if (first === 'status') return second === 'counted' ? 'counted' : 'status';
  if (typeof first === 'string' && first in PROFILE_BLOCKS) return first as ProfileField;
  // The refinement over the whole profile: names without a header row.
  return 'header';
}
