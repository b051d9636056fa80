/**
 * The requester's modals: which kind of payout, the form (optionally prefilled), the review screen
 * that shows exactly what will be stored and sent, and the confirmation once it is stored.
 */
import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { textsFor, type Texts } from '../../i18n/index.js';
import { typedAmount } from '../../core/money.js';
import {
  draftToFields,
  PAYOUT_FIELD_LIMITS,
  PAYOUT_KINDS,
  railOf,
  type ApprovalRequirement,
  type PayoutDraft,
  type PayoutFieldName,
  type PayoutFormFields,
  type PayoutKind,
  type PayoutRequest,
  type ScheduleInput,
} from '../../payouts/index.js';
import { scheduleInputBlocks, scheduleLines, type ScheduleFields } from './payout-schedule.js';
import { PAYOUT_ACTIONS, PAYOUT_BLOCKS, PAYOUT_FIELD_BLOCKS, PAYOUT_VIEWS } from '../ids.js';
import { cutMrkdwn, escapeMrkdwn, footer, mentionChannel, plainText, sandboxFooter, truncate, type Surface } from './text.js';
import { detailBlocks, dualApprovalLine, payoutSummary } from './payout-details.js';
import { noticeModal } from './notice.js';
import { operatorName } from './operators.js';
import { railWording } from './rail-wording.js';
import { recipientFlagBlocks, type RecipientFlags } from './recipient-flags.js';
import { savedRecipientBlock } from './saved-recipients.js';
import { dayTotalsBlocks, signalBlocks, type ApprovalContext } from './approval-signals.js';

/** What the selects offer: from configuration (PAYOUT_OPERATORS, PAYOUT_CURRENCIES). */
export interface PayoutFormChoices {
  operators: readonly string[];
  currencies: readonly string[];
  /** The team's zone (TEAM_TIMEZONE), in which the form's Send on date and time are read. */
  timeZone?: string | undefined;
}

/**
 * What the form and the review carry from one step to the next, all of it checked again on the server:
 * `resubmits` names the rejected request this form corrects ("Edit and resubmit"); `filledFrom` is the
 * saved recipient picked into the form, sealed by the listener (the service reads it again and compares).
 */
export interface FormCarry {
  resubmits?: string | undefined;
  filledFrom?: string | undefined;
}

/**
 * What a modal of this flow carries in `private_metadata`; all of it is checked again on the server.
 * `fill` counts the saved recipients picked into this form (see `fieldBlockId`).
 */
export type PayoutFormMetadata = { kind: PayoutKind; fill?: number } & FormCarry;

/**
 * The block of a form field. Slack keeps what a person typed across `views.update` for inputs whose
 * block_id stays, which would hide the values a picked saved recipient fills in: each fill gives
 * every field a new block_id, with what was typed carried over as initial values.
 */
export function fieldBlockId(field: PayoutFieldName, fill = 0): string {
  return fill > 0 ? `${PAYOUT_FIELD_BLOCKS[field]}_${fill}` : PAYOUT_FIELD_BLOCKS[field];
}
export type PayoutReviewMetadata = { draft: PayoutDraft; schedule?: ScheduleInput } & FormCarry;

interface FieldSpec {
  label: string;
  hint?: string;
  placeholder?: string;
  optional?: boolean;
  multiline?: boolean;
  maxLength?: number;
  /** A select over these options instead of a text input. */
  options?: readonly string[];
  /** What a person reads for an option; its value stays the option itself. */
  optionText?: (value: string) => string;
}

function fieldSpec(t: Texts, field: PayoutFieldName, kind: PayoutKind, choices: PayoutFormChoices): FieldSpec {
  // A placeholder reads as a hint (`e.g. 243812345678`), never as a value already filled in.
  const example = (value: string) => t('payoutRequest.field.example', { example: value });
  switch (field) {
    case 'phone':
      return { label: t('payoutRequest.field.phone'), placeholder: example('243812345678'), hint: t('payoutRequest.field.phone.hint'), maxLength: 30 };
    case 'name': {
      const name = railWording(kind).nameField(t);
      return { label: name.label, placeholder: example(name.example), maxLength: PAYOUT_FIELD_LIMITS.name.max };
    }
    case 'countryCode':
      return { label: t('payoutRequest.field.countryCode'), placeholder: example('CD'), hint: t('payoutRequest.field.countryCode.hint'), maxLength: 10 };
    case 'operator':
      return {
        label: t('payoutRequest.field.operator'),
        placeholder: t('payoutRequest.field.operator.placeholder'),
        options: choices.operators,
        optionText: operatorName,
      };
    case 'accountNumber':
      return { label: t('payoutRequest.field.accountNumber'), placeholder: example('00012345678901'), maxLength: 50 };
    case 'bankCode':
      return { label: t('payoutRequest.field.bankCode'), placeholder: example('BCDCCDKI'), hint: t('payoutRequest.field.bankCode.hint'), maxLength: 20 };
    case 'amount':
      return {
        label: t('payoutRequest.field.amount'),
        placeholder: example(t('payoutRequest.field.amount.placeholder')),
        hint: t('payoutRequest.field.amount.hint'),
        maxLength: 30,
      };
    case 'currency':
      return { label: t('payoutRequest.field.currency'), placeholder: t('payoutRequest.field.currency.placeholder'), options: choices.currencies };
    case 'reference':
      return {
        label: t('payoutRequest.field.reference'),
        placeholder: example('INV-2025-0042'),
        optional: true,
        maxLength: PAYOUT_FIELD_LIMITS.reference.max,
        hint: t('payoutRequest.field.reference.hint'),
      };
    case 'note':
      return {
        label: t('payoutRequest.field.note'),
        optional: true,
        multiline: true,
        maxLength: PAYOUT_FIELD_LIMITS.note.max,
        hint: t('payoutRequest.field.note.hint'),
      };
  }
}

function option(value: string, text: (value: string) => string = (same) => same): PlainTextOption {
  return { text: plainText(text(value), 75), value };
}

function inputBlock(field: PayoutFieldName, spec: FieldSpec, value: string | undefined, fill: number): InputBlock {
  const base = {
    type: 'input' as const,
    block_id: fieldBlockId(field, fill),
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
        type: 'static_select',
        action_id: PAYOUT_ACTIONS.input,
        ...placeholder,
        options: spec.options.slice(0, 100).map((choice) => option(choice, spec.optionText)),
        ...(initial !== undefined ? { initial_option: option(initial, spec.optionText) } : {}),
      },
    };
  }
  const initial = value === undefined ? '' : truncate(value, spec.maxLength ?? 3000);
  return {
    ...base,
    element: {
      type: 'plain_text_input',
      action_id: PAYOUT_ACTIONS.input,
      ...placeholder,
      multiline: spec.multiline ?? false,
      ...(spec.maxLength ? { max_length: spec.maxLength } : {}),
      ...(initial !== '' ? { initial_value: initial } : {}),
    },
  };
}

/** The first step: `/fleet payout` without a kind asks where the money goes. */
export function buildPayoutChooser(surface: Surface, prefillText: string): ModalView {
  const t = textsFor(surface.locale);
  const blocks: KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: t('payoutRequest.chooser.question') } },
    {
      type: 'actions',
      block_id: PAYOUT_BLOCKS.chooser,
      elements: PAYOUT_KINDS.map((kind) => {
        const { actionId, label, primary } = railWording(kind).chooser;
        return { type: 'button', action_id: actionId, text: plainText(label(t), 75), value: kind, ...(primary ? { style: 'primary' as const } : {}) };
      }),
    },
  ];
  blocks.push(...sandboxFooter(surface));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.chooser,
    title: plainText(t('payoutRequest.chooser.title'), 24),
    close: plainText(t('payoutRequest.cancel'), 24),
    // Only a prefill for the form; nothing in it is trusted.
    private_metadata: truncate(prefillText, 500),
    blocks,
  };
}

/**
 * The form's values for a draft the person goes back to: the amount written the way that person
 * types it (`1 500,50` in French), which their reading of amounts takes back to the same value.
 */
export function formValuesFor(surface: Surface, draft: PayoutDraft): PayoutFormFields {
  return { ...draftToFields(draft), amount: typedAmount(draft.amountMinor, draft.currency, surface.locale) };
}

/**
 * The form for one kind of payout, each input prefilled from `values`. `problems` is shown above the
 * fields when the request could not be stored after the review (Slack only shows per-field errors
 * in answer to the form's own submission). `carried` goes on to the review.
 */
export function buildPayoutForm(
  surface: Surface,
  kind: PayoutKind,
  choices: PayoutFormChoices,
  values: PayoutFormFields,
  problems: string[] = [],
  fill = 0,
  carried: FormCarry = {},
  when: ScheduleFields = {},
): ModalView {
  const t = textsFor(surface.locale);
  const { resubmits } = carried;
  const fields = railOf(kind).formFields;
  const blocks: KnownBlock[] = [];
  if (resubmits) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: t('payoutRequest.resubmit.of', { id: escapeMrkdwn(resubmits) }) }] });
  if (problems.length > 0) {
    const lines = problems.map((problem) => `• ${escapeMrkdwn(problem)}`).join('\n');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: `${t('payoutRequest.form.notStored')}\n${cutMrkdwn(lines, 2800)}` } });
  }
  blocks.push(savedRecipientBlock(t));
  for (const field of fields) {
    const value = values[field];
    blocks.push(inputBlock(field, fieldSpec(t, field, kind, choices), value ?? undefined, fill));
  }
  blocks.push(...scheduleInputBlocks(t, choices.timeZone ?? 'UTC', when, fill));
  blocks.push(footer(surface, t('payoutRequest.form.next')));
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.form,
    title: plainText(t(`payoutRequest.form.title.${kind}`), 24),
    submit: plainText(t('payoutRequest.form.submit'), 24),
    close: plainText(t('payoutRequest.cancel'), 24),
    private_metadata: JSON.stringify({ kind, ...(fill > 0 ? { fill } : {}), ...carriedFields(carried) } satisfies PayoutFormMetadata),
    blocks,
  };
}

/**
 * Step one of the confirmation: every detail as it will be stored and sent (the amount once, in the
 * reader's way of writing numbers), and why it needs two approvers when it does (`approvals`, as
 * it would be decided now); Back or Submit for approval.
 */
export function buildPayoutReview(
  surface: Surface,
  draft: PayoutDraft,
  approvalChannelId: string | undefined,
  approvals?: ApprovalRequirement & { recipient?: RecipientFlags },
  carried: FormCarry = {},
  context: ApprovalContext = {},
  schedule?: { input: ScheduleInput; times: readonly Date[]; timeZone: string },
): ModalView {
  const t = textsFor(surface.locale);
  const { resubmits } = carried;
  // The requester sees what the approvers will see, and that a possible duplicate asks them for a tick.
  const signals = signalBlocks(context, surface.locale);
  if (context.signals?.duplicateOf) signals.push({ type: 'context', elements: [{ type: 'mrkdwn', text: t('approvalSignals.duplicate.review') }] });
  const blocks: KnownBlock[] = [
    ...(resubmits
      ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: t('payoutRequest.resubmit.of', { id: escapeMrkdwn(resubmits) }) }] } satisfies KnownBlock]
      : []),
    // The amount stands once, in the details' Amount field, written the reader's way.
    { type: 'section', text: { type: 'mrkdwn', text: t('payoutRequest.review.check') } },
    ...(approvals?.recipient ? recipientFlagBlocks(draft.kind, approvals.recipient, surface.locale) : []),
    ...signals,
    ...detailBlocks(draft, surface.locale),
    ...(schedule
      ? [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: [
                ...scheduleLines(schedule.times, schedule.input.repeat, schedule.timeZone, surface.locale, draft.reference),
                t('payoutSchedule.review.approvedAhead'),
              ].join('\n'),
            },
          } satisfies KnownBlock,
        ]
      : []),
    ...(approvals !== undefined && approvals.required > 1
      ? [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: `:busts_in_silhouette: ${dualApprovalLine(approvals.reason, draft.currency, surface.locale, approvals.required)}` },
          } satisfies KnownBlock,
        ]
      : []),
    ...(context.signals ? dayTotalsBlocks(context.signals, '', surface.locale, 'you') : []),
    {
      type: 'actions',
      block_id: PAYOUT_BLOCKS.reviewActions,
      elements: [{ type: 'button', action_id: PAYOUT_ACTIONS.backToForm, text: plainText(t('payoutRequest.review.back'), 75), value: 'back' }],
    },
    footer(surface, approvalChannelId ? t('payoutRequest.review.footerIn', { channel: mentionChannel(approvalChannelId) }) : t('payoutRequest.review.footer')),
  ];
  return {
    type: 'modal',
    callback_id: PAYOUT_VIEWS.review,
    title: plainText(t('payoutRequest.review.title'), 24),
    submit: plainText(t('payoutRequest.review.submit'), 24),
    close: plainText(t('payoutRequest.cancel'), 24),
    private_metadata: reviewMetadata(draft, carried, schedule?.input),
    blocks,
  };
}

const PRIVATE_METADATA_MAX = 3000;

/**
 * The draft, for Back and Submit (both check it again). A validated draft always fits: its fields
 * are bounded and hold no control characters, which JSON would write as six characters each. One
 * that does not fit is left out, and submitting it asks the person to start again.
 */
function reviewMetadata(draft: PayoutDraft, carried: FormCarry, schedule?: ScheduleInput): string {
  const metadata = JSON.stringify({ draft, ...carriedFields(carried), ...(schedule ? { schedule } : {}) } satisfies PayoutReviewMetadata);
  return metadata.length <= PRIVATE_METADATA_MAX ? metadata : '';
}

/** Only the values set, so that the metadata stays as short as it can. */
function carriedFields(carried: FormCarry): FormCarry {
  return Object.fromEntries(Object.entries(carried).filter(([, value]) => value !== undefined && value !== ''));
}

/** What the requester sees once the request is stored. */
export function buildPayoutSubmitted(surface: Surface, request: PayoutRequest, approvalChannelId: string | undefined): ModalView {
  const t = textsFor(surface.locale);
  const summary = payoutSummary(request, surface.locale);
  const text = approvalChannelId
    ? t('payoutRequest.submitted.textIn', { id: request.id, summary, channel: mentionChannel(approvalChannelId) })
    : t('payoutRequest.submitted.text', { id: request.id, summary });
  return noticeModal(surface, { title: t('payoutRequest.submitted.title'), text, callbackId: PAYOUT_VIEWS.submitted });
}
