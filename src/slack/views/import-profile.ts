/**
 * The import profile builder: a modal made from the uploaded records file itself. It shows the
 * file's first lines, then asks how the file is written (separator, encoding, lines to skip, header)
 * and which of its columns holds each part of a record. Changing the layout rebuilds the modal from
 * `draftFromState`; the submitted modal is read back by `profileFromState`.
 */
import type { ContextBlock, InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { textsFor, type Texts } from '../../i18n/index.js';
import { DATE_FORMATS } from '../../partner-records/profile.js';
import { dateFormatsReading, type FileSample, type SampleProblem } from '../../partner-records/profile-sample.js';
import { PROFILE } from '../ids.js';
import {
  actionOf,
  AMOUNT_LAYOUTS,
  CHOICES,
  datesAmbiguous,
  ENCODINGS,
  LISTED_COLUMNS_MAX,
  NO_COLUMN,
  PROFILE_BLOCKS,
  positionIn,
  sampleDates,
  type ColumnField,
  type ProfileDraft,
  type ProfileField,
} from './import-profile-state.js';
import { cutMrkdwn, escapeMrkdwn, escapeWithin, plainText, plainWithin, sandboxFooter, type Surface } from './text.js';

export {
  draftFromProfile,
  draftFromState,
  newDraft,
  profileFromState,
  type ProfileDraft,
  type ProfileFromState,
  type ViewStateValues,
} from './import-profile-state.js';

export interface ProfileModalInput {
  fileName: string;
  /** The file's start read with the draft's layout; undefined when it cannot be read so. */
  sample: FileSample | undefined;
  /** Why the file's start cannot be read with the draft's layout, when the caller knows. */
  sampleProblem?: SampleProblem['problem'] | undefined;
  draft: ProfileDraft;
  /** Problems to show under their blocks, by block id (as `profileFromState` gives them). */
  errors?: Record<string, string> | undefined;
  privateMetadata: string;
  /** Zones offered for the file's times; the draft's (a new profile: the ledger's) is chosen. */
  timeZones: readonly string[];
  /** Currencies offered for a file in one currency. */
  currencies: readonly string[];
}

/** The input, and whether the file's columns are offered in lists (or typed, for a view that would be too large). */
type Built = ProfileModalInput & { listColumns: boolean };

const OPTIONS_MAX = 100;
/**
 * Slack refuses a view past a size it does not state exactly (views.update's reference says 250 kB;
 * modals of a few long selects are reported failing): past this many characters of JSON, a file's
 * columns are typed by number or name instead of listed in every role's select.
 */
export const VIEW_JSON_MAX = 60_000;
/** Lines lose their end past this, so that the first lines fit one section. */
const LINE_MAX = 360;
const SECTION_MAX = 3000;
const SKIP_CHOICES = 20;
const EXAMPLE_MAX = 24;
const WORDS_INPUT_MAX = 400;

/** A plain-text option; its text ours or the file's, neutralised and cut to Slack's 75 characters. */
function option(value: string, text: string): PlainTextOption {
  return { text: { type: 'plain_text', text: plainWithin(text, 75) }, value };
}

interface InputSpec {
  label: string;
  hint?: string | undefined;
  optional?: boolean;
}

const REBUILD_ACTIONS: ReadonlySet<string> = new Set(Object.values(PROFILE.rebuild));

function inputBlock(field: ProfileField, spec: InputSpec, element: InputBlock['element']): InputBlock {
  const rebuilds = 'action_id' in element && element.action_id !== undefined && REBUILD_ACTIONS.has(element.action_id);
  return {
    type: 'input',
    block_id: PROFILE_BLOCKS[field],
    label: plainText(spec.label, 2000),
    ...(spec.hint ? { hint: plainText(spec.hint, 2000) } : {}),
    ...(spec.optional ? { optional: true } : {}),
    ...(rebuilds ? { dispatch_action: true } : {}),
    element,
  };
}

function select(field: ProfileField, spec: InputSpec, options: PlainTextOption[], selected: string | undefined, placeholder: string): InputBlock {
  const listed = options.slice(0, OPTIONS_MAX);
  const initial = listed.find((candidate) => candidate.value === selected);
  return inputBlock(field, spec, {
    type: 'static_select',
    action_id: actionOf(field),
    placeholder: plainText(placeholder, 150),
    options: listed,
    ...(initial ? { initial_option: initial } : {}),
  });
}

function radio(field: ProfileField, spec: InputSpec, options: PlainTextOption[], selected: string | undefined): InputBlock {
  const initial = options.find((candidate) => candidate.value === selected);
  return inputBlock(field, spec, { type: 'radio_buttons', action_id: actionOf(field), options, ...(initial ? { initial_option: initial } : {}) });
}

function textInput(field: ProfileField, spec: InputSpec, value: string | undefined, maxLength: number): InputBlock {
  return inputBlock(field, spec, {
    type: 'plain_text_input',
    action_id: actionOf(field),
    max_length: maxLength,
    ...(value ? { initial_value: value.slice(0, maxLength) } : {}),
  });
}

const keyOf = <V>(choices: Record<string, V>, value: V | undefined): string | undefined => Object.entries(choices).find(([, choice]) => choice === value)?.[0];
/** The list with `selected` in it, at most `OPTIONS_MAX` long. */
const offered = (list: readonly string[], selected: string | undefined) => {
  const unique = [...new Set(list)].slice(0, OPTIONS_MAX);
  return selected === undefined || unique.includes(selected) ? unique : [selected, ...unique.slice(0, OPTIONS_MAX - 1)];
};

/** The file's first lines as written, in a code block: escaped, hidden characters shown, each line and the whole cut to fit. */
function firstLinesText(sample: FileSample): string {
  const lines = sample.firstLines.map((line) => cutMrkdwn(escapeMrkdwn(line.replace(/`/g, "'")), LINE_MAX));
  return `\`\`\`\n${cutMrkdwn(lines.join('\n'), SECTION_MAX - 8) || ' '}\n\`\`\``;
}

function sampleBlocks(surface: Surface, input: Built): KnownBlock[] {
  const t = textsFor(surface.locale);
  const intro: KnownBlock = {
    type: 'section',
    text: { type: 'mrkdwn', text: t('profiles.intro', { file: escapeWithin(input.fileName, 100, { oneLine: true }) }) },
  };
  const { sample } = input;
  if (!sample) {
    const encoding = t(`profiles.encoding.${input.draft.encoding ?? 'utf-8'}`);
    const why = input.sampleProblem ? t(`profiles.noSample.${input.sampleProblem}`, { encoding }) : t('profiles.noSample');
    return [intro, { type: 'section', block_id: PROFILE.sampleBlock, text: { type: 'mrkdwn', text: `:warning: ${why}` } }];
  }
  const first = sample.firstRows[0];
  const read =
    sample.columns.length === 0 || !first
      ? t('profiles.noColumns')
      : t('profiles.columnsRead', {
          count: sample.columns.length,
          row: escapeWithin(first.map((cell) => cell.trim()).join(' | '), 600, { oneLine: true }),
        });
  return [
    intro,
    { type: 'section', block_id: PROFILE.sampleBlock, text: { type: 'mrkdwn', text: firstLinesText(sample) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: cutMrkdwn(read, SECTION_MAX) }] },
  ];
}

/** A column's option: its position and header name (or "Column 3"), with the first record's value. */
function columnOption(t: Texts, sample: FileSample, index: number): PlainTextOption {
  const position = index + 1;
  const name = sample.columns[index]?.trim() ?? '';
  const column = !sample.named
    ? t('profiles.column.position', { position })
    : name === ''
      ? t('profiles.column.unnamed', { position })
      : t('profiles.column.named', { position, name: plainWithin(name, 60) });
  const example = sample.firstRows[0]?.[index]?.trim() ?? '';
  return option(String(position), example === '' ? column : t('profiles.column.example', { column, example: plainWithin(example, EXAMPLE_MAX) }));
}

/** A role's column: a list of the file's columns, or (a file too wide for a list, or none read) a number or name to type. */
function columnInput(t: Texts, input: Built, field: ColumnField, spec: InputSpec): InputBlock {
  const { sample, draft } = input;
  const ref = draft[field];
  const optional = spec.optional ?? false;
  const count = sample?.columns.length ?? 0;
  if (!sample || count === 0 || count > LISTED_COLUMNS_MAX || !input.listColumns) {
    const typed = typeof ref === 'number' ? String(ref) : Array.isArray(ref) ? ref[0] : ref;
    return inputBlock(
      field,
      { ...spec, hint: [spec.hint, count > 0 ? t('profiles.column.typedHint', { count }) : undefined].filter(Boolean).join(' ') },
      {
        type: 'plain_text_input',
        action_id: PROFILE.typedColumn,
        max_length: 80,
        ...(typed ? { initial_value: typed.slice(0, 80) } : {}),
      },
    );
  }
  const options = [...(optional ? [option(NO_COLUMN, t('profiles.column.none'))] : []), ...sample.columns.map((_, index) => columnOption(t, sample, index))];
  const position = positionIn(sample, ref);
  return select(field, spec, options, position === undefined ? undefined : String(position), t('profiles.column.placeholder'));
}

function fileBlocks(t: Texts, draft: ProfileDraft): KnownBlock[] {
  const skips = (value: number | undefined) =>
    [...new Set([...Array.from({ length: SKIP_CHOICES + 1 }, (_, count) => count), ...(value !== undefined && value <= 100 ? [value] : [])])]
      .sort((a, b) => a - b)
      .map((count) => option(String(count), String(count)));
  return [
    { type: 'header', text: plainText(t('profiles.section.file'), 150) },
    radio(
      'delimiter',
      { label: t('profiles.delimiter.label') },
      (['comma', 'semicolon', 'tab'] as const).map((key) => option(key, t(`profiles.delimiter.${key}`))),
      keyOf(CHOICES.delimiter, draft.delimiter),
    ),
    select(
      'encoding',
      { label: t('profiles.encoding.label'), hint: t('profiles.encoding.hint') },
      ENCODINGS.map((encoding) => option(encoding, t(`profiles.encoding.${encoding}`))),
      draft.encoding,
      t('profiles.placeholder'),
    ),
    select(
      'skipAbove',
      { label: t('profiles.skipAbove.label'), hint: t('profiles.skipAbove.hint') },
      skips(draft.skipAbove),
      draft.skipAbove?.toString(),
      t('profiles.placeholder'),
    ),
    radio(
      'header',
      { label: t('profiles.header.label') },
      [option('yes', t('profiles.header.yes')), option('no', t('profiles.header.no'))],
      draft.header === undefined ? undefined : draft.header ? 'yes' : 'no',
    ),
    select(
      'skipBelow',
      { label: t('profiles.skipBelow.label'), hint: t('profiles.skipBelow.hint') },
      skips(draft.skipBelow),
      draft.skipBelow?.toString(),
      t('profiles.placeholder'),
    ),
  ];
}

function dateBlocks(t: Texts, input: Built): KnownBlock[] {
  const { draft, sample } = input;
  const dates = sampleDates(sample, draft.date);
  const formats = dateFormatsReading(dates);
  // Suggested only when one format reads every date shown: never when day and month could swap.
  const format = draft.dateFormat ?? (formats.length === 1 ? formats[0] : undefined);
  const values = dates
    .slice(0, 3)
    .map((date) => plainWithin(date, EXAMPLE_MAX))
    .join(', ');
  const hint =
    dates.length === 0 ? undefined : datesAmbiguous(dates) ? t('profiles.dateFormat.ambiguousHint', { values }) : t('profiles.dateFormat.hint', { values });
  // An option's value holds 75 characters: a longer name is no zone anyway.
  const zones = offered(
    input.timeZones.filter((zone) => zone.length <= 75),
    draft.timeZone !== undefined && draft.timeZone.length <= 75 ? draft.timeZone : undefined,
  );
  return [
    columnInput(t, input, 'date', { label: t('profiles.date.label') }),
    select(
      'dateFormat',
      { label: t('profiles.dateFormat.label'), hint },
      DATE_FORMATS.map((candidate) => option(candidate, t(`profiles.dateFormat.${candidate}`))),
      format,
      t('profiles.placeholder'),
    ),
    select(
      'timeZone',
      { label: t('profiles.timeZone.label'), hint: t('profiles.timeZone.hint') },
      zones.map((zone) => option(zone, zone)),
      draft.timeZone,
      t('profiles.placeholder'),
    ),
  ];
}

function amountBlocks(t: Texts, input: Built): KnownBlock[] {
  const { draft } = input;
  const layout = draft.amountLayout;
  const blocks: KnownBlock[] = [
    { type: 'header', text: plainText(t('profiles.section.amounts'), 150) },
    radio(
      'amountLayout',
      { label: t('profiles.amountLayout.label') },
      AMOUNT_LAYOUTS.map((candidate) => option(candidate, t(`profiles.amountLayout.${candidate}`))),
      layout,
    ),
  ];
  if (layout === 'signed') blocks.push(columnInput(t, input, 'amount', { label: t('profiles.amount.signedLabel') }));
  if (layout === 'debit_credit') {
    blocks.push(columnInput(t, input, 'debit', { label: t('profiles.debit.label') }), columnInput(t, input, 'credit', { label: t('profiles.credit.label') }));
  }
  if (layout === 'flagged') {
    const required = option('required', t('profiles.flagRequired.option'));
    blocks.push(
      columnInput(t, input, 'amount', { label: t('profiles.amount.label') }),
      columnInput(t, input, 'flag', { label: t('profiles.flag.label') }),
      textInput('inWords', { label: t('profiles.inWords.label'), hint: t('profiles.inWords.hint') }, draft.inWords?.join(', '), WORDS_INPUT_MAX),
      textInput('outWords', { label: t('profiles.outWords.label'), hint: t('profiles.outWords.hint') }, draft.outWords?.join(', '), WORDS_INPUT_MAX),
      inputBlock(
        'flagRequired',
        { label: t('profiles.flagRequired.label'), hint: t('profiles.flagRequired.hint'), optional: true },
        {
          type: 'checkboxes',
          action_id: actionOf('flagRequired'),
          options: [required],
          ...(draft.flagRequired ? { initial_options: [required] } : {}),
        },
      ),
    );
  }
  blocks.push(
    radio(
      'decimalMark',
      { label: t('profiles.decimalMark.label') },
      (['dot', 'comma'] as const).map((key) => option(key, t(`profiles.decimalMark.${key}`))),
      keyOf(CHOICES.decimalMark, draft.decimalMark),
    ),
    select(
      'grouping',
      { label: t('profiles.grouping.label') },
      (['none', 'comma', 'dot', 'space', 'apostrophe'] as const).map((key) => option(key, t(`profiles.grouping.${key}`))),
      keyOf(CHOICES.grouping, draft.grouping),
      t('profiles.placeholder'),
    ),
  );
  return blocks;
}

function currencyBlocks(t: Texts, input: Built): KnownBlock[] {
  const { draft } = input;
  const kind = radio(
    'currencyKind',
    { label: t('profiles.currencyKind.label') },
    [option('column', t('profiles.currencyKind.column')), option('fixed', t('profiles.currencyKind.fixed'))],
    draft.currencyKind,
  );
  if (draft.currencyKind === 'column') return [kind, columnInput(t, input, 'currencyColumn', { label: t('profiles.currencyColumn.label') })];
  if (draft.currencyKind !== 'fixed') return [kind];
  const isCode = (code: string | undefined): code is string => code !== undefined && /^[A-Z]{3}$/.test(code);
  const currencies = offered(input.currencies.map((code) => code.toUpperCase()).filter(isCode), isCode(draft.currency) ? draft.currency : undefined);
  return [
    kind,
    select(
      'currency',
      { label: t('profiles.currency.label') },
      currencies.map((code) => option(code, code)),
      draft.currency,
      t('profiles.placeholder'),
    ),
  ];
}

function optionalBlocks(t: Texts, input: Built): KnownBlock[] {
  return [
    { type: 'header', text: plainText(t('profiles.section.more'), 150) },
    columnInput(t, input, 'status', { label: t('profiles.status.label'), hint: t('profiles.status.hint'), optional: true }),
    textInput(
      'counted',
      { label: t('profiles.counted.label'), hint: t('profiles.counted.hint'), optional: true },
      input.draft.counted?.join(', '),
      WORDS_INPUT_MAX,
    ),
    columnInput(t, input, 'description', { label: t('profiles.description.label'), optional: true }),
    columnInput(t, input, 'note', { label: t('profiles.note.label'), optional: true }),
  ];
}

/** Each problem as a warning line under its block (those of blocks not shown, at the top). */
function withErrors(blocks: KnownBlock[], errors: Record<string, string> | undefined): KnownBlock[] {
  if (!errors || Object.keys(errors).length === 0) return blocks;
  const warning = (text: string): ContextBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text: `:warning: ${escapeWithin(text, 2000)}` }] });
  const shown = new Set(blocks.map((block) => block.block_id));
  const placed = blocks.flatMap((block) => {
    const error = block.block_id === undefined ? undefined : errors[block.block_id];
    return error === undefined ? [block] : [block, warning(error)];
  });
  const elsewhere = Object.entries(errors).filter(([blockId]) => !shown.has(blockId));
  return [...elsewhere.map(([, text]) => warning(text)), ...placed];
}

export function buildProfileModal(surface: Surface, input: ProfileModalInput): ModalView {
  const listed = profileModal(surface, { ...input, listColumns: true });
  return JSON.stringify(listed).length <= VIEW_JSON_MAX ? listed : profileModal(surface, { ...input, listColumns: false });
}

function profileModal(surface: Surface, input: Built): ModalView {
  const t = textsFor(surface.locale);
  const { draft } = input;
  const blocks: KnownBlock[] = [
    ...sampleBlocks(surface, input),
    textInput('name', { label: t('profiles.name.label'), hint: t('profiles.name.hint') }, draft.name, 40),
    ...fileBlocks(t, draft),
    { type: 'header', text: plainText(t('profiles.section.columns'), 150) },
    columnInput(t, input, 'reference', { label: t('profiles.reference.label'), hint: t('profiles.reference.hint') }),
    ...dateBlocks(t, input),
    ...amountBlocks(t, input),
    ...currencyBlocks(t, input),
    ...optionalBlocks(t, input),
    ...sandboxFooter(surface),
  ];
  return {
    type: 'modal',
    callback_id: PROFILE.view,
    title: plainText(t('profiles.title'), 24),
    submit: plainText(t('profiles.submit'), 24),
    close: plainText(t('profiles.close'), 24),
    private_metadata: input.privateMetadata,
    blocks: withErrors(blocks, input.errors),
  };
}
