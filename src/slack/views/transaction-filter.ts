/**
 * The Filter modal of `/fleet tx`: currency, type and direction selects, two date pickers, an amount
 * range and a text field, filled from the search being shown. What the person submits is read by
 * `searchFromFields` (src/ledger/query-text.ts) into the same search `/fleet tx` text makes.
 */
import type { InputBlock, ModalView, PlainTextOption } from '@slack/types';
import { textsFor, type Texts } from '../../i18n/index.js';
import { isCalendarDay } from '../../core/calendar.js';
import { searchToText, type TransactionSearch } from '../../ledger/query-text.js';
import { TRANSACTION_FILTER } from '../ids.js';
import { typedDecimal } from '../../core/money.js';
import { plainText, plainWithin, type Surface } from './text.js';

/** The value of a select's "any" option: no filter on that field. */
export const ANY = 'any';
const KNOWN_TYPES = ['PAYMENT', 'B2B_JIT_FUNDING'] as const;
const FILTER_TEXT_MAX = 300;
const AMOUNT_INPUT_MAX = 30;

export interface FilterModalInput {
  search: TransactionSearch;
  /** Currencies offered in the select (the others can still be typed as `currency:XYZ` in the text). */
  currencies: readonly string[];
  timeZone: string;
  /** Where the answer goes, carried back by Slack on submit. */
  privateMetadata: string;
}

function option(value: string, text: string): PlainTextOption {
  return { text: plainText(text, 75), value };
}

function select(blockId: string, label: string, options: PlainTextOption[], selected: string | undefined): InputBlock {
  const initial = options.find((candidate) => candidate.value === selected) ?? options[0];
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label),
    element: { type: 'static_select', action_id: TRANSACTION_FILTER.input, options, ...(initial ? { initial_option: initial } : {}) },
  };
}

function datepicker(t: Texts, blockId: string, label: string, day: string | undefined, hint?: string): InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label),
    element: {
      type: 'datepicker',
      action_id: TRANSACTION_FILTER.input,
      placeholder: plainText(t('transactions.modal.pickDay')),
      ...(day && isCalendarDay(day) ? { initial_date: day } : {}),
    },
    ...(hint ? { hint: plainText(hint, 150) } : {}),
  };
}

function textInput(blockId: string, label: string, value: string | undefined, maxLength: number, hint?: string): InputBlock {
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: plainText(label),
    element: {
      type: 'plain_text_input',
      action_id: TRANSACTION_FILTER.input,
      max_length: maxLength,
      ...(value ? { initial_value: value.slice(0, maxLength) } : {}),
    },
    ...(hint ? { hint: plainText(hint, 150) } : {}),
  };
}

export function buildTransactionFilterModal(surface: Surface, input: FilterModalInput): ModalView {
  const t = textsFor(surface.locale);
  const { search } = input;
  const currencies = [...new Set(input.currencies.map((code) => code.toUpperCase()))].slice(0, 99);
  // What has no control of its own (or a value the control does not offer) goes into the text field.
  const inSelect = (value: string | undefined, offered: readonly string[]) => value !== undefined && offered.includes(value);
  const rest: TransactionSearch = {
    ...(search.currency && !inSelect(search.currency, currencies) ? { currency: search.currency } : {}),
    ...(search.type && !inSelect(search.type, KNOWN_TYPES) ? { type: search.type } : {}),
    ...(search.status ? { status: search.status } : {}),
    ...(search.words ? { words: search.words } : {}),
  };
  const zoneHint = t('transactions.modal.daysHint', { zone: plainWithin(input.timeZone, 60) });
  return {
    type: 'modal',
    callback_id: TRANSACTION_FILTER.view,
    title: plainText(t('transactions.modal.title')),
    submit: plainText(t('transactions.modal.submit')),
    close: plainText(t('transactions.modal.close')),
    private_metadata: input.privateMetadata,
    blocks: [
      select(
        TRANSACTION_FILTER.currency,
        t('transactions.modal.currency'),
        [option(ANY, t('transactions.modal.anyCurrency')), ...currencies.map((code) => option(code, code))],
        inSelect(search.currency, currencies) ? search.currency : ANY,
      ),
      select(
        TRANSACTION_FILTER.type,
        t('transactions.modal.type'),
        [
          option(ANY, t('transactions.modal.anyType')),
          option('PAYMENT', t('transactions.modal.typePayment')),
          option('B2B_JIT_FUNDING', t('transactions.modal.typeFunding')),
        ],
        inSelect(search.type, KNOWN_TYPES) ? search.type : ANY,
      ),
      select(
        TRANSACTION_FILTER.direction,
        t('transactions.modal.direction'),
        [option(ANY, t('transactions.modal.bothDirections')), option('in', t('transactions.modal.in')), option('out', t('transactions.modal.out'))],
        search.direction ?? ANY,
      ),
      datepicker(t, TRANSACTION_FILTER.since, t('transactions.modal.since'), search.since),
      datepicker(t, TRANSACTION_FILTER.until, t('transactions.modal.until'), search.until, zoneHint),
      textInput(TRANSACTION_FILTER.min, t('transactions.modal.min'), search.min && typedDecimal(search.min, surface.locale), AMOUNT_INPUT_MAX),
      textInput(
        TRANSACTION_FILTER.max,
        t('transactions.modal.max'),
        search.max && typedDecimal(search.max, surface.locale),
        AMOUNT_INPUT_MAX,
        t('transactions.modal.amountHint'),
      ),
      textInput(TRANSACTION_FILTER.text, t('transactions.modal.text'), searchToText(rest), FILTER_TEXT_MAX, t('transactions.modal.textHint')),
    ],
  };
}
