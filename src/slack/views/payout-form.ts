/**
 * The requester's modals: which kind of payout, the form (optionally prefilled), the review screen
 * that shows exactly what will be stored and sent, and the confirmation once it is stored.
 */
import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import {
  BANK_ACCOUNT_FIELDS, MOBILE_MONEY_FIELDS, PAYOUT_FIELD_LIMITS,
  type ApprovalRequirement, type PayoutDraft, type PayoutFieldName, type PayoutFormFields, type PayoutKind, type PayoutRequest,
} from '../../payouts/index.js';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_FIELD_BLOCKS, PAYOUT_VIEWS } from '../ids.js';
import { cutMrkdwn, escapeMrkdwn, footer, mentionChannel, plainText, sandboxFooter, truncate, type Surface } from './text.js';
import { detailBlocks, dualApprovalLine, payoutSummary } from './payout-details.js';

/** What the selects offer: from configuration (PAYOUT_OPERATORS, PAYOUT_CURRENCIES). */
export interface PayoutFormChoices {
  operators: readonly string[];
  currencies: readonly string[];
}

/** What a modal of this flow carries in `private_metadata`; all of it is checked again on the server. */
export type PayoutFormMetadata = { kind: PayoutKind };
export type PayoutReviewMetadata = { draft: PayoutDraft };


const TITLES: Record<PayoutKind, string> = { mobile_money: 'Mobile money payout', bank_account: 'Bank payout' };

interface FieldSpec {
  label: string;
  hint?: string;
  placeholder?: string;
  optional?: boolean;
  multiline?: boolean;
  maxLength?: number;
  /** A select over these options instead of a text input. */
  options?: readonly string[];
}

function fieldSpec(field: PayoutFieldName, kind: PayoutKind, choices: PayoutFormChoices): FieldSpec {
  switch (field) {
    case 'phone':
      return { label: 'Phone number', placeholder: '243812345678', hint: 'Digits with the country prefix. A leading + and spaces are fine.', maxLength: 30 };
    case 'name':
      return kind === 'mobile_money'
        ? { label: 'Recipient name', placeholder: 'Amani Kabila', maxLength: PAYOUT_FIELD_LIMITS.name.max }
        : { label: 'Account holder name', placeholder: 'Ndaya Logistics SARL', maxLength: PAYOUT_FIELD_LIMITS.name.max };
    case 'countryCode':
      return { label: 'Country', placeholder: 'CD', hint: 'Two-letter country code, like CD.', maxLength: 10 };
    case 'operator':
      return { label: 'Mobile money operator', placeholder: 'Choose the operator', options: choices.operators };
    case 'accountNumber':
      return { label: 'Account number', placeholder: '00012345678901', maxLength: 50 };
    case 'bankCode':
      return { label: 'Bank code (BIC)', placeholder: 'BCDCCDKI', hint: '8 or 11 characters, like BCDCCDKI.', maxLength: 20 };
    case 'amount':
      return { label: 'Amount', placeholder: '1500.50', hint: 'Digits, with a dot before the decimals. No thousands separators.', maxLength: 30 };
    case 'currency':
      return { label: 'Currency', placeholder: 'Choose the currency', options: choices.currencies };
    case 'reference':
      return {
        label: 'Reference', placeholder: 'INV-2025-0042', optional: true, maxLength: PAYOUT_FIELD_LIMITS.reference.max,
        hint: 'Sent with the payout and used once only. Leave it empty and one is made for you.',
      };
    case 'note':
      return { label: 'Note for the approver', optional: true, multiline: true, maxLength: PAYOUT_FIELD_LIMITS.note.max, hint: 'What the payout is for.' };
  }
}

function option(value: string): PlainTextOption {
  return { text: plainText(value, 75), value };
}

function inputBlock(field: PayoutFieldName, spec: FieldSpec, value: string | undefined): InputBlock {
  const base = {
    type: 'input' as const,
    block_id: PAYOUT_FIELD_BLOCKS[field],
    label: plainText(spec.label),
    optional: spec.optional ?? false,
    ...(spec.hint ? { hint: plainText(spec.hint) } : {}),
  };
  const placeholder = spec.placeholder ? { placeholder: plainText(spec.placeholder) } : {};
  if (spec.options) {
    const initial = spec.options.find((choice) => choice.toUpperCase() === value?.trim().toUpperCase());
    return {
      ...base,
      element: {
        type: 'static_select', action_id: PAYOUT_ACTIONS.input, ...placeholder,
        options: spec.options.slice(0, 100).map(option),
        ...(initial !== undefined ? { initial_option: option(initial) } : {}),
      },
    };
  }
  const initial = value === undefined ? '' : truncate(value, spec.maxLength ?? 3000);
  return {
    ...base,
    element: {
      type: 'plain_text_input', action_id: PAYOUT_ACTIONS.input, ...placeholder,
      multiline: spec.multiline ?? false,
      ...(spec.maxLength ? { max_length: spec.maxLength } : {}),
      ...(initial !== '' ? { initial_value: initial } : {}),
    },
  };
}

/** The first step: `/fleet payout` without a kind asks where the money goes. */
export function buildPayoutChooser(surface: Surface, prefillText: string): ModalView {
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: 'Where should the money go?' } },
    {
      type: 'actions',
      block_id: PAYOUT_BLOCKS.chooser,
      elements: [
        { type: 'button', action_id: PAYOUT_ACTIONS.chooseMobileMoney, text: plainText('Mobile money'), value: 'mobile_money', style: 'primary' },
        { type: 'button', action_id: PAYOUT_ACTIONS.chooseBankAccount, text: plainText('Bank account'), value: 'bank_account' },
      ],
    },
  ];
  blocks.push(...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.chooser,
    title: plainText('New payout'),
    close: plainText('Cancel'),
    // Only a prefill for the form; nothing in it is trusted.
    private_metadata: truncate(prefillText, 500),
    blocks,
  };
}

/**
 * The form for one kind of payout, each input prefilled from `values`. `problems` is shown above the
 * fields when the request could not be stored after the review (Slack only shows per-field errors
 * in answer to the form's own submission).
 */
export function buildPayoutForm(
  surface: Surface,
  kind: PayoutKind,
  choices: PayoutFormChoices,
  values: PayoutFormFields,
  problems: string[] = [],
): ModalView {
  const fields = kind === 'mobile_money' ? MOBILE_MONEY_FIELDS : BANK_ACCOUNT_FIELDS;
  const blocks: KnownBlock[] = [];
  if (problems.length > 0) {
    const lines = problems.map((problem) => `• ${escapeMrkdwn(problem)}`).join('\n');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `:warning: *The request was not stored:*\n${cutMrkdwn(lines, 2800)}` } });
  }
  for (const field of fields) {
    const value = values[field];
    blocks.push(inputBlock(field, fieldSpec(field, kind, choices), value ?? undefined));
  }
  blocks.push(footer(surface, 'Next you will see the payout exactly as it will be sent, before it goes to an approver.'));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.form,
    title: plainText(TITLES[kind]),
    submit: plainText('Review'),
    close: plainText('Cancel'),
    private_metadata: JSON.stringify({ kind } satisfies PayoutFormMetadata),
    blocks,
  };
}

/**
 * Step one of the confirmation: every detail as it will be stored and sent, and why it needs two
 * approvers when it does (`approvals`, as it would be decided now); Back or Submit for approval.
 */
export function buildPayoutReview(surface: Surface, draft: PayoutDraft, approvalChannelId: string | undefined, approvals?: ApprovalRequirement): ModalView {
  const where = approvalChannelId ? ` in ${mentionChannel(approvalChannelId)}` : '';
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `Check the payout: ${payoutSummary(draft)}.` } },
    ...detailBlocks(draft),
    ...(approvals?.required === 2
      ? [{ type: 'section', text: { type: 'mrkdwn', text: `:busts_in_silhouette: ${dualApprovalLine(approvals.reason, draft.currency)}` } } satisfies KnownBlock]
      : []),
    {
      type: 'actions',
      block_id: PAYOUT_BLOCKS.reviewActions,
      elements: [{ type: 'button', action_id: PAYOUT_ACTIONS.backToForm, text: plainText('Back'), value: 'back' }],
    },
    footer(surface, `*Submit for approval* stores the request and asks an approver${where}. Nothing is sent before an approver confirms it.`),
  ];
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.review,
    title: plainText('Check the payout'),
    submit: plainText('Submit for approval'),
    close: plainText('Cancel'),
    private_metadata: reviewMetadata(draft),
    blocks,
  };
}

const PRIVATE_METADATA_MAX = 3000;

/**
 * The draft, for Back and Submit (both check it again). A validated draft always fits: its fields
 * are bounded and hold no control characters, which JSON would write as six characters each. One
 * that does not fit is left out, and submitting it asks the person to start again.
 */
function reviewMetadata(draft: PayoutDraft): string {
  const metadata = JSON.stringify({ draft } satisfies PayoutReviewMetadata);
  return metadata.length <= PRIVATE_METADATA_MAX ? metadata : '';
}

/** What the requester sees once the request is stored. */
export function buildPayoutSubmitted(surface: Surface, request: PayoutRequest, approvalChannelId: string | undefined): ModalView {
  const where = approvalChannelId ? ` in ${mentionChannel(approvalChannelId)}` : '';
  const text = `:white_check_mark: Payout *${request.id}* (${payoutSummary(request)}) is waiting for approval${where}.\nYou will get a direct message when it is approved, sent, rejected or expires.`;
  return buildPayoutNotice(surface, 'Payout requested', text, PAYOUT_VIEWS.submitted);
}

/** A modal that only says something: a refusal, progress, or an outcome. */
export function buildPayoutNotice(surface: Surface, title: string, text: string, callbackId: string = PAYOUT_VIEWS.notice): ModalView {
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'mrkdwn', text: cutMrkdwn(text, 3000) } }];
  blocks.push(...sandboxFooter(surface));
  return { type: 'modal', callback_id: callbackId, title: plainText(title, 24), close: plainText('Close'), blocks };
}
