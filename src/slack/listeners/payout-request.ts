/**
 * Requesting a payout: `/fleet payout [mobile|bank] …` opens the form at once, the form's submission
 * is validated by the domain (errors under their fields), the review screen shows exactly what will
 * be stored, and its submission stores the request, which the notifier then posts for approval.
 */
import type { App, BlockAction, ButtonAction, ExternalSelectAction, ViewOutput, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import {
  parseCommandPrefill,
  PAYOUT_ID_PATTERN,
  PAYOUT_KINDS,
  payoutKindFromWord,
  railOf,
  scheduleInputShape,
  travelledDraftSchema,
  type ScheduleInput,
  type PayoutDraft,
  type PayoutFormFields,
  type PayoutKind,
  type RecipientIdentity,
  type RecipientRefusalCode,
  type Resubmission,
} from '../../payouts/index.js';
import { formatWallTime } from '../../core/calendar.js';
import { textsFor } from '../../i18n/index.js';
import type { SlackContext } from '../context.js';
import { openThenFill, type ModalOrRefusal } from '../open-then-fill.js';
import type { ListenerRouter } from '../transport/listener-router.js';
import { readerSurfaceOf } from '../transport/middleware.js';
import { failureText } from '../refusals/failures.js';
import { HOME, PAYOUT_ACTIONS, PAYOUT_VIEWS, RECIPIENT_ACTIONS } from '../ids.js';
import { surfaceFor } from '../locales.js';
import { fieldErrorsByBlock, refusalMessage, refusalProblems, refusalText } from '../refusals/payout-refusals.js';
import type { Subcommand } from '../subcommands.js';
import { loadingModal, noticeModal, noticeUpdate, privateNotice } from '../views/notice.js';
import {
  buildPayoutChooser,
  buildPayoutForm,
  buildPayoutReview,
  buildPayoutSubmitted,
  fieldBlockId,
  formValuesFor,
  type FormCarry,
} from '../views/payout-form.js';
import { BUTTON_VALUE_MAX } from '../trust/sealed-values.js';
import { railWording } from '../views/rail-wording.js';
import { fillFromSaved } from '../views/saved-recipients.js';
import { readScheduleFields, scheduleErrors, scheduleInput, type ScheduleFields } from '../views/payout-schedule.js';
import type { Surface } from '../views/text.js';

// What comes back in private_metadata is only a convenience: every value is validated again by the domain.
// `resubmits` only names a request: the service links it only to the same requester's rejected request.
// `filledFrom` is the saved recipient picked, sealed (`pickedSeal`): the service reads it again and compares.
const resubmitsSchema = z.string().regex(PAYOUT_ID_PATTERN).optional();
const filledFromSchema = z.string().max(BUTTON_VALUE_MAX).optional();
const formMetadataSchema = z.object({
  kind: z.enum(PAYOUT_KINDS),
  fill: z.number().int().min(0).max(1000).optional(),
  resubmits: resubmitsSchema,
  filledFrom: filledFromSchema,
});
const reviewMetadataSchema = z.object({
  draft: travelledDraftSchema,
  resubmits: resubmitsSchema,
  filledFrom: filledFromSchema,
  schedule: scheduleInputShape.optional(),
});
// Sealed as an object of its own shape, so that no other value the app seals reads as a pick.
const pickedSchema = z.object({ filledFrom: z.string().max(200) });

/** The saved recipient picked into the form, sealed for the form's and the review's private_metadata. */
function sealPicked(ctx: SlackContext, identity: RecipientIdentity): string | undefined {
  return ctx.seal.seal({ filledFrom: identity } satisfies z.infer<typeof pickedSchema>);
}

/** The saved recipient the form says it was filled from, when the app sealed it; only a claim for the service to check. */
function openPicked(ctx: SlackContext, sealed: string | undefined): RecipientIdentity | undefined {
  return sealed === undefined ? undefined : ctx.seal.open(sealed, pickedSchema)?.filledFrom;
}

function readMetadata<T>(raw: string | undefined, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The form's values by field name, from Slack's `state.values` keyed by block id. */
function readForm(kind: PayoutKind, view: Pick<ViewOutput, 'state'>, fill = 0): PayoutFormFields {
  const fields: PayoutFormFields = {};
  for (const field of railOf(kind).formFields) {
    const entry = view.state.values[fieldBlockId(field, fill)]?.[PAYOUT_ACTIONS.input];
    fields[field] = entry?.selected_option?.value ?? entry?.value ?? undefined;
  }
  return fields;
}

/** How long `/fleet payout` waits for the role check before opening the modal anyway. */
const QUICK_ROLE_ANSWER_MS = 700;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Another form opened by a word after `/fleet payout` (the bulk form's `bulk`); wired by listeners/index.ts. */
export interface PayoutVariant {
  words: ReadonlySet<string>;
  open: Subcommand['run'];
  help: Subcommand['help'];
}

export function payoutRequestSubcommand(ctx: SlackContext, variants: readonly PayoutVariant[] = []): Subcommand {
  const { payouts, payoutSettings, logger } = ctx;
  return {
    name: 'payout',
    aliases: ['virement'],
    localNames: { fr: 'paiement' },
    audience: 'requesters',
    // The form's trigger id lasts about 3 seconds: the refusal races the role check here (see below),
    // which a first read of a user group's members from Slack must not hold up.
    checksAudienceItself: true,
    help: (t) => [
      { usage: t('payoutRequest.help.usage'), description: t('payoutRequest.help.description') },
      ...variants.flatMap((variant) => variant.help(t)),
    ],
    async run({ command, args, respond, client, readerSurface }) {
      const variant = variants.find((candidate) => candidate.words.has((args[0] ?? '').toLowerCase()));
      if (variant) return variant.open({ command, args: args.slice(1), respond, client, readerSurface });
      // The person's language is looked up once and kept for a while, so the trigger id still holds.
      const surface = await readerSurface();
      const t = textsFor(surface.locale);
      if (!payoutSettings.approvalChannelId) {
        await respond(privateNotice(surface, t('payoutRequest.notConfigured')));
        return;
      }
      // Who may request is asked at once; when it answers quickly (the usual case) a refusal is a
      // private reply like every other command's, with no modal. A slow answer (Slack asked for
      // user-group members) must not cost the trigger id: the modal opens, then says the refusal.
      const asked = payouts.mayRequest(command.user_id).then(
        (decision) => ({ decision }),
        (error: unknown) => ({ error }),
      );
      const early = await Promise.race([asked, sleep(QUICK_ROLE_ANSWER_MS).then(() => undefined)]);
      if (early && 'decision' in early && !early.decision.ok) {
        await respond(privateNotice(surface, refusalText(early.decision, surface.locale)));
        return;
      }
      const kind = payoutKindFromWord(args[0]);
      const view = kind
        ? buildPayoutForm(surface, kind, payoutSettings, parseCommandPrefill(kind, args.join(' ')))
        : buildPayoutChooser(surface, args.join(' '));
      let viewId: string | undefined;
      try {
        // Before anything slow: the trigger id expires about 3 seconds after the command.
        viewId = (await client.views.open({ trigger_id: command.trigger_id, view })).view?.id;
      } catch (error) {
        await respond(privateNotice(surface, failureText(surface.locale, error, 'openPayoutForm', logger)));
        return;
      }
      const answer = early ?? (await asked);
      if ('error' in answer) {
        logger.error({ err: answer.error }, 'could not check whether a person may request payouts');
      } else if (!answer.decision.ok && viewId) {
        await client.views.update({ view_id: viewId, view: noticeModal(surface, payoutNotice(surface, refusalText(answer.decision, surface.locale))) });
      }
    },
  };
}

/** A notice in the payout form's place, under its title. */
function payoutNotice(surface: Surface, text: string): { title: string; text: string; callbackId: string } {
  return { title: textsFor(surface.locale)('payoutRequest.chooser.title'), text, callbackId: PAYOUT_VIEWS.notice };
}

/** The form's answer: its errors under their fields, or the review screen. */
async function checkForm(
  ctx: SlackContext,
  surface: Surface,
  userId: string,
  metadata: { kind: PayoutKind; fill?: number | undefined } & FormCarry,
  view: ViewOutput,
): Promise<ViewResponseAction> {
  const { kind, fill = 0 } = metadata;
  const decision = await ctx.payouts.mayRequest(userId);
  if (!decision.ok) {
    return noticeUpdate(surface, payoutNotice(surface, refusalText(decision, surface.locale)));
  }
  // Send on: empty sends once approved; a date needs a time, ahead and at most 366 days away (checked in the team's zone).
  const when = scheduleInput(readScheduleFields(view.state.values, fill), surface.locale, fill);
  const { schedules } = ctx;
  const whenErrors = { ...when.errors, ...(when.input && schedules ? scheduleErrors(schedules.check(when.input), surface.locale, fill) : {}) };
  const validation = await ctx.payouts.validate(kind, readForm(kind, view, fill), userId, surface.locale);
  if (!validation.ok || Object.keys(whenErrors).length > 0) {
    return {
      response_action: 'errors',
      errors: { ...(validation.ok ? {} : inFill(fieldErrorsByBlock(validation.errors, surface.locale), fill)), ...whenErrors },
    };
  }
  const [approvals, signals] = await Promise.all([
    ctx.payouts.previewApprovals(userId, validation.draft, openPicked(ctx, metadata.filledFrom)),
    ctx.payouts.previewSignals(userId, validation.draft),
  ]);
  const context = { signals, duplicateWindowHours: ctx.payoutSettings.duplicateWindowHours };
  const schedule = when.input && schedules ? { input: when.input, times: schedules.times(when.input), timeZone: schedules.timeZone } : undefined;
  const carried = { resubmits: metadata.resubmits, filledFrom: metadata.filledFrom };
  return {
    response_action: 'update',
    view: buildPayoutReview(surface, validation.draft, ctx.payoutSettings.approvalChannelId, approvals, carried, context, schedule),
  };
}

export function registerPayoutRequestListeners(router: ListenerRouter, ctx: SlackContext): void {
  const { payoutSettings, logger } = ctx;
  const showNotice = (surface: Surface, message: string): ViewResponseAction => noticeUpdate(surface, payoutNotice(surface, message));

  // The home tab's New payout: the same chooser as `/fleet payout`, opened first (the trigger id is short-lived), the role checked right after.
  router.action<BlockAction<ButtonAction>>(HOME.newPayout, async ({ ack, body, client, context }) => {
    await ack();
    const surface = await readerSurfaceOf(context, body.user.id)();
    const t = textsFor(surface.locale);
    try {
      if (!payoutSettings.approvalChannelId) {
        await client.views.open({ trigger_id: body.trigger_id, view: noticeModal(surface, payoutNotice(surface, t('payoutRequest.notConfigured'))) });
        return;
      }
      const viewId = (await client.views.open({ trigger_id: body.trigger_id, view: buildPayoutChooser(surface, '') })).view?.id;
      const decision = await ctx.payouts.mayRequest(body.user.id);
      if (!decision.ok && viewId)
        await client.views.update({ view_id: viewId, view: noticeModal(surface, payoutNotice(surface, refusalText(decision, surface.locale))) });
    } catch (error) {
      logger.warn({ err: error, userId: body.user.id }, 'could not open the payout form from the home tab');
    }
  });

  for (const kind of PAYOUT_KINDS) {
    router.action<BlockAction<ButtonAction>>(railWording(kind).chooser.actionId, async ({ ack, body, client, context }) => {
      await ack();
      if (!body.view) return;
      const surface = await readerSurfaceOf(context, body.user.id)();
      const form = buildPayoutForm(surface, kind, payoutSettings, parseCommandPrefill(kind, body.view.private_metadata));
      await updateView(client, body.view, form, logger);
    });
  }

  router.view<ViewSubmitAction>(PAYOUT_VIEWS.form, async ({ ack, body, view, context }) => {
    let answer: ViewResponseAction;
    const surface = await readerSurfaceOf(context, body.user.id)();
    const metadata = readMetadata(view.private_metadata, formMetadataSchema);
    if (!metadata) {
      answer = showNotice(surface, textsFor(surface.locale)('payoutRequest.formOutOfDate'));
    } else {
      try {
        answer = await checkForm(ctx, surface, body.user.id, metadata, view);
      } catch (error) {
        answer = showNotice(surface, failureText(surface.locale, error, 'checkPayout', logger));
      }
    }
    await ack(answer);
  });

  router.action<BlockAction<ExternalSelectAction>>(RECIPIENT_ACTIONS.pick, async ({ ack, body, client }) => {
    await ack();
    try {
      await fillSavedRecipient(ctx, body, client);
    } catch (error) {
      logger.error({ err: error }, 'could not fill the payout form with a saved recipient');
    }
  });

  router.action<BlockAction<ButtonAction>>(PAYOUT_ACTIONS.backToForm, async ({ ack, body, client, context }) => {
    await ack();
    const metadata = body.view && readMetadata(body.view.private_metadata, reviewMetadataSchema);
    if (!body.view || !metadata) return;
    const { draft } = metadata;
    const surface = await readerSurfaceOf(context, body.user.id)();
    const form = buildPayoutForm(
      surface,
      draft.kind,
      payoutSettings,
      formValuesFor(surface, draft),
      [],
      0,
      { resubmits: metadata.resubmits, filledFrom: metadata.filledFrom },
      scheduleFieldsOf(metadata.schedule),
    );
    await updateView(client, body.view, form, logger);
  });

  // "Edit and resubmit" on a rejection DM: the form with the rejected request's values, for its requester only.
  router.action<BlockAction<ButtonAction>>(PAYOUT_ACTIONS.resubmit, async ({ ack, body, client, context }) => {
    await ack();
    try {
      let surface = ctx.surface;
      const lookups = async (): Promise<ModalOrRefusal> => {
        surface = await readerSurfaceOf(context, body.user.id)();
        // The button names a request; whose it is and its state are read from the store.
        return { view: resubmitView(ctx, surface, await ctx.payouts.resubmission(body.actions[0]?.value ?? '', body.user.id)) };
      };
      const title = () => textsFor(surface.locale)('payoutRequest.chooser.title');
      await openThenFill(client, body.trigger_id, lookups(), {
        loading: () => loadingModal(surface, title(), PAYOUT_VIEWS.notice),
        refusal: (text) => noticeModal(surface, { title: title(), text, callbackId: PAYOUT_VIEWS.notice }),
        failure: (error) =>
          noticeModal(surface, { title: title(), text: failureText(surface.locale, error, 'openPayoutForm', logger), callbackId: PAYOUT_VIEWS.notice }),
      });
    } catch (error) {
      logger.error({ err: error, userId: body.user.id }, 'could not open the form to resubmit a rejected payout');
    }
  });

  router.view<ViewSubmitAction>(PAYOUT_VIEWS.review, async ({ ack, body, view, context }) => {
    let answer: ViewResponseAction;
    const surface = await readerSurfaceOf(context, body.user.id)();
    const metadata = readMetadata(view.private_metadata, reviewMetadataSchema);
    if (!metadata) {
      answer = showNotice(surface, textsFor(surface.locale)('payoutRequest.reviewOutOfDate'));
    } else {
      try {
        answer = await submitReview(
          ctx,
          surface,
          body.user.id,
          metadata.draft,
          { resubmits: metadata.resubmits, filledFrom: metadata.filledFrom },
          metadata.schedule,
        );
      } catch (error) {
        answer = showNotice(surface, failureText(surface.locale, error, 'storePayoutRequest', logger));
      }
    }
    await ack(answer);
  });
}

/**
 * The form filled from a rejected request (its reference as `resubmission` offers it), or why it cannot be.
 * A request edited from a saved recipient stays filled from it, so that its correction says so too.
 */
function resubmitView(ctx: SlackContext, surface: Surface, found: Resubmission): ModalView {
  const t = textsFor(surface.locale);
  if (found.ok) {
    const { request, reference } = found;
    const saved = request.changedDetails?.saved.identity;
    const carried = { resubmits: request.id, filledFrom: saved === undefined ? undefined : sealPicked(ctx, saved) };
    return buildPayoutForm(surface, request.kind, ctx.payoutSettings, { ...formValuesFor(surface, request), reference }, [], 0, carried);
  }
  const id = found.request?.id ?? '';
  const text =
    found.code === 'not_own'
      ? t('payoutRequest.resubmit.notOwn')
      : found.code === 'not_rejected'
        ? t('payoutRequest.resubmit.notRejected', { id })
        : found.code === 'not_requester'
          ? refusalMessage({ code: 'not_requester', details: { action: 'request' } }, surface.locale)
          : t('payoutApproval.refusal.noSuchPayout');
  return noticeModal(surface, payoutNotice(surface, text));
}

/** The review's answer: the stored request, or the form again with what stopped it. */
async function submitReview(
  ctx: SlackContext,
  surface: Surface,
  userId: string,
  draft: PayoutDraft,
  carried: FormCarry,
  schedule?: ScheduleInput,
): Promise<ViewResponseAction> {
  const { payouts, payoutSettings, schedules } = ctx;
  // The draft came back from the client: the service checks the role and every field again.
  const result = await payouts.submitReview(userId, draft, {
    resubmitOf: carried.resubmits,
    filledFrom: openPicked(ctx, carried.filledFrom),
    schedule: schedule && schedules ? { input: schedule, schedules } : undefined,
  });
  if (result.ok) return { response_action: 'update', view: buildPayoutSubmitted(surface, result.request, payoutSettings.approvalChannelId) };
  if (result.code === 'schedule_invalid') {
    // The time passed while the review was open: the form again, saying why.
    const problems = Object.values(scheduleErrors(result.problems, surface.locale));
    return {
      response_action: 'update',
      view: buildPayoutForm(surface, draft.kind, payoutSettings, formValuesFor(surface, draft), problems, 0, carried, scheduleFieldsOf(schedule)),
    };
  }
  if (result.errors) {
    const form = buildPayoutForm(surface, draft.kind, payoutSettings, formValuesFor(surface, draft), refusalProblems(result, surface.locale), 0, carried);
    return { response_action: 'update', view: form };
  }
  return noticeUpdate(surface, payoutNotice(surface, refusalText(result, surface.locale)));
}

/** The form's When fields for a schedule the person goes back to. */
function scheduleFieldsOf(schedule: ScheduleInput | undefined): ScheduleFields {
  if (!schedule) return {};
  return {
    sendOn: schedule.firstDay,
    sendAt: formatWallTime(schedule.time),
    repeat: schedule.repeat,
    ...(schedule.count !== undefined ? { count: String(schedule.count) } : {}),
    ...(schedule.endsOn ? { until: schedule.endsOn } : {}),
  };
}

/** Errors keyed by the blocks of a form without fills, moved to the blocks of fill `fill`. */
function inFill(errors: Record<string, string>, fill: number): Record<string, string> {
  if (fill === 0) return errors;
  return Object.fromEntries(Object.entries(errors).map(([blockId, message]) => [`${blockId}_${fill}`, message]));
}

/**
 * A saved recipient picked in the form: the form again (of the recipient's kind) with its fields
 * filled in and what was typed elsewhere kept, and the pick sealed in it (for "changed details" once
 * edited). Only the recipient's identity comes from the client; the role and the recipient are read on the server.
 */
async function fillSavedRecipient(ctx: SlackContext, body: BlockAction<ExternalSelectAction>, client: App['client']): Promise<void> {
  const view = body.view;
  const metadata = view && readMetadata(view.private_metadata, formMetadataSchema);
  const identity = body.actions[0]?.selected_option?.value;
  if (!view || !metadata || !identity) return;
  const surface = await surfaceFor(ctx, body.user.id);
  const fill = (metadata.fill ?? 0) + 1;
  const typed = readForm(metadata.kind, view, metadata.fill);
  const picked = await ctx.recipients.pick(body.user.id, identity);
  const form = picked.ok
    ? buildPayoutForm(surface, picked.recipient.kind, ctx.payoutSettings, fillFromSaved(typed, picked.recipient), [], fill, {
        resubmits: metadata.resubmits,
        filledFrom: sealPicked(ctx, picked.recipient.identity),
      })
    : buildPayoutForm(surface, metadata.kind, ctx.payoutSettings, typed, [savedRecipientRefusal(picked.code, surface)], fill, {
        resubmits: metadata.resubmits,
        filledFrom: metadata.filledFrom,
      });
  await updateView(client, view, form, ctx.logger);
}

function savedRecipientRefusal(code: RecipientRefusalCode, surface: Surface): string {
  const t = textsFor(surface.locale);
  return code === 'not_found'
    ? t('payoutRequest.savedRecipient.gone')
    : refusalMessage({ code: 'not_requester', details: { action: 'request' } }, surface.locale);
}

/** Replaces a modal the person is looking at; `hash` stops us overwriting a newer version of it. */
async function updateView(client: App['client'], current: { id: string; hash: string }, view: ModalView, logger: SlackContext['logger']): Promise<void> {
  try {
    await client.views.update({ view_id: current.id, hash: current.hash, view });
  } catch (error) {
    logger.warn({ err: error }, 'could not update a payout modal');
  }
}
