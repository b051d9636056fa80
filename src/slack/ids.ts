/** Every action_id, block_id and callback_id the app uses, in one place. */
import type { PayoutFieldName } from '../payouts/index.js';

export const COMMAND = '/fleet';

export const ACTIONS = {
  balanceRefresh: 'balance_refresh',
  balanceShare: 'balance_share',
  transactionsPage: 'transactions_page',
  transactionsShare: 'transactions_share',
  transactionsFilter: 'transactions_filter',
} as const;

export const BLOCKS = {
  accountActions: 'account_actions',
} as const;

/** The Filter modal of `/fleet tx`: its callback_id, and one block per field (each input's action_id is `value`). */
export const TRANSACTION_FILTER = {
  view: 'transactions_filter_modal',
  input: 'value',
  currency: 'filter_currency',
  type: 'filter_type',
  direction: 'filter_direction',
  since: 'filter_since',
  until: 'filter_until',
  min: 'filter_min',
  max: 'filter_max',
  text: 'filter_text',
} as const;

/** Modals of the payout flow, by `callback_id`. */
export const PAYOUT_VIEWS = {
  chooser: 'payout_chooser',
  form: 'payout_form',
  review: 'payout_review',
  submitted: 'payout_submitted',
  approve: 'payout_approve_modal',
  reject: 'payout_reject_modal',
  notice: 'payout_notice',
} as const;

/** The chooser's button of a kind (`payout_choose_mobile_money`): one id per kind, kept as it is since sent messages carry it. */
export type PayoutChooserAction<K extends string> = `payout_choose_${K}`;
export function payoutChooserAction<K extends string>(kind: K): PayoutChooserAction<K> {
  return `payout_choose_${kind}`;
}

/**
 * Buttons of the payout flow. Their `value` is at most a request id (and, for a likely match, which
 * entry): everything else is read from the store.
 */
export const PAYOUT_ACTIONS = {
  backToForm: 'payout_back_to_form',
  approve: 'payout_approve',
  reject: 'payout_reject',
  cancel: 'payout_cancel',
  retry: 'payout_retry_same_reference',
  /** A likely match's buttons carry `PR-XXXXXX:<match id>`, so that a stale one never acts on another entry. */
  confirmMatch: 'payout_confirm_likely_match',
  rejectMatch: 'payout_reject_likely_match',
  /** On the requester's rejection DM: the form again with the rejected request's values; carries its id only. */
  resubmit: 'payout_resubmit',
  /** The action_id of every input inside its block; the block_id says which field it is. */
  input: 'value',
} as const;

/** One block per form field, named after the domain's field so that its errors land under it. */
export const PAYOUT_FIELD_BLOCKS = {
  phone: 'payout_phone',
  name: 'payout_name',
  countryCode: 'payout_country_code',
  operator: 'payout_operator',
  accountNumber: 'payout_account_number',
  bankCode: 'payout_bank_code',
  amount: 'payout_amount',
  currency: 'payout_currency',
  reference: 'payout_reference',
  note: 'payout_note',
} as const satisfies Record<PayoutFieldName, string>;

/** Scheduled payouts: the form's When fields (each input's action_id is `value`), and the buttons on occurrences (`PR-XXXXXX:<number>`). */
export const PAYOUT_SCHEDULE = {
  sendOnBlock: 'payout_send_on',
  sendAtBlock: 'payout_send_at',
  repeatBlock: 'payout_repeat',
  countBlock: 'payout_repeat_count',
  untilBlock: 'payout_repeat_until',
  actions: 'payout_schedule_actions',
  retry: 'payout_schedule_retry',
  sendNow: 'payout_schedule_send_now',
  skip: 'payout_schedule_skip',
  skipNext: 'payout_schedule_skip_next',
  cancelSeries: 'payout_schedule_cancel_series',
} as const;

export const PAYOUT_BLOCKS = {
  chooser: 'payout_chooser_actions',
  reviewActions: 'payout_review_actions',
  messageActions: 'payout_message_actions',
  rejectReason: 'payout_reject_reason',
  resubmitActions: 'payout_resubmit_actions',
  /** The approve window's tick "I checked this is not a duplicate" (its action_id is `value`). */
  duplicateCheck: 'payout_duplicate_check',
} as const;

/** `/fleet payout bulk`: its modals by `callback_id`, and its blocks (each input's action_id is `value`). */
export const PAYOUT_BATCH = {
  uploadView: 'payout_batch_upload',
  checkingView: 'payout_batch_checking',
  resultView: 'payout_batch_result',
  /** The result of a file without problems, whose submit asks for approval. */
  readyView: 'payout_batch_ready',
  fileBlock: 'payout_batch_file',
  pasteBlock: 'payout_batch_paste',
  /** The text file's encoding, chosen in the form (UTF-8 when none). */
  encodingBlock: 'payout_batch_encoding',
  /** An approver's rejection: the modal (its private_metadata is the batch id) and its reason's block. */
  rejectView: 'payout_batch_reject_modal',
  rejectReasonBlock: 'payout_batch_reject_reason',
  input: 'value',
} as const;

/** `/fleet reconcile`: its modals by `callback_id`, the file's block, and the history's button (its value is a run id, checked again). */
export const RECORDS = {
  uploadView: 'records_upload',
  checkingView: 'records_checking',
  /** The file as read through its profile; its submit button runs the match. */
  previewView: 'records_preview',
  resultView: 'records_result',
  fileBlock: 'records_file',
  /** The upload form's profile select: `auto` (by the file's header) or `profile:<name>`. */
  profileBlock: 'records_profile',
  input: 'value',
  exceptionsFile: 'records_exceptions_file',
  /** The preview's buttons that switch the modal to the profile builder. */
  makeProfile: 'records_make_profile',
  editProfile: 'records_edit_profile',
} as const;

/**
 * The import profile builder (`/fleet reconcile`): its modal's callback_id, one block per field
 * (each input's action_id is `value`, or `typed` for a column typed by number or name), and the
 * inputs whose change rebuilds the modal: they dispatch their own action_id, and the listener
 * answers with `views.update` of the view built from `draftFromState`.
 */
export const PROFILE = {
  view: 'import_profile',
  input: 'value',
  typedColumn: 'typed',
  sampleBlock: 'profile_sample',
  blocks: {
    name: 'profile_name',
    delimiter: 'profile_delimiter',
    encoding: 'profile_encoding',
    skipAbove: 'profile_skip_above',
    skipBelow: 'profile_skip_below',
    header: 'profile_header',
    reference: 'profile_reference',
    date: 'profile_date',
    dateFormat: 'profile_date_format',
    timeZone: 'profile_time_zone',
    amountLayout: 'profile_amount_layout',
    amount: 'profile_amount',
    debit: 'profile_debit',
    credit: 'profile_credit',
    flag: 'profile_flag',
    inWords: 'profile_in_words',
    outWords: 'profile_out_words',
    flagRequired: 'profile_flag_required',
    decimalMark: 'profile_decimal_mark',
    grouping: 'profile_grouping',
    currencyKind: 'profile_currency_kind',
    currencyColumn: 'profile_currency_column',
    currency: 'profile_currency',
    status: 'profile_status',
    counted: 'profile_counted',
    description: 'profile_description',
    note: 'profile_note',
  },
  rebuild: {
    delimiter: 'profile_delimiter_changed',
    encoding: 'profile_encoding_changed',
    skipAbove: 'profile_skip_above_changed',
    header: 'profile_header_changed',
    /** The date column: its values show under the date format, which is suggested when only one reads them all. */
    date: 'profile_date_changed',
    amountLayout: 'profile_amount_layout_changed',
    currencyKind: 'profile_currency_kind_changed',
  },
} as const;

/** Buttons of a bulk payout's approval message; their `value` is the batch id, nothing more. */
export const PAYOUT_BATCH_ACTIONS = {
  approve: 'payout_batch_approve',
  reject: 'payout_batch_reject',
  stop: 'payout_batch_stop',
  confirmSameBlock: 'payout_batch_confirm_same',
} as const;

/**
 * Saved recipients: the payout form's type-ahead select (an `external_select`, whose options come
 * from a `block_suggestion`), and the Remove button of `/fleet recipients`, whose value is the
 * recipient's identity (checked again on the server).
 */
export const RECIPIENT_ACTIONS = {
  pick: 'payout_saved_recipient',
  remove: 'saved_recipient_remove',
} as const;

export const RECIPIENT_BLOCKS = {
  pick: 'payout_saved_recipient_block',
} as const;

/** The App Home tab. Its Approve and Reject buttons are the approval message's own (`PAYOUT_ACTIONS`), so they take the same path. */
export const HOME = {
  refresh: 'home_refresh',
  newPayout: 'home_new_payout',
  transactions: 'home_transactions',
  export: 'home_export',
  actionsBlock: 'home_actions',
  /** One actions block per request waiting for the viewer: the prefix, then the request id. */
  waitingBlockPrefix: 'home_waiting_',
} as const;

/** The Workflow Builder step's direct message to the requester it names: Confirm and Decline, each valued with the function execution id. */
export const WORKFLOW_STEP_ACTIONS = {
  confirm: 'workflow_payout_confirm',
  decline: 'workflow_payout_decline',
} as const;
