/** The payout domain's public surface, for the Slack layer and main.ts; nothing here knows Slack. */
export {
  canTransition,
  INTERRUPTED_FAILURE,
  readFleetFailure,
  DUAL_APPROVAL_RULES,
  isFinalState,
  PAYOUT_EVENT_NAMES,
  PAYOUT_KINDS,
  PAYOUT_STATES,
  requestMatchesDraft,
  STATES_COUNTING_TOWARDS_LIMIT,
} from './model.js';
export { currentFailureReason } from './stored-reasons.js';
export type {
  AmountApprovalRule,
  ApprovalMessageRef,
  DualApprovalReason,
  DualApprovalRule,
  PayoutHold,
  BankAccountRecipient,
  FieldErrors,
  FieldProblem,
  MobileMoneyRecipient,
  PayoutActionResult,
  PayoutApproval,
  PayoutDraft,
  PayoutEvent,
  PayoutEventName,
  PayoutFieldName,
  PayoutKind,
  LikelyMatch,
  ChangedDetails,
  PayoutLifecycle,
  PayoutRefusal,
  RecipientField,
  PayoutRefusalCode,
  PayoutRequest,
  PayoutState,
  RefusalDetails,
  SearchOutcome,
} from './model.js';
export { PAYOUT_ID_PATTERN } from './identifiers.js';
export { assertNever, PAYOUT_RAILS, railOf, travelledDraftSchema } from './rails/index.js';
export type { DraftOf, PayoutRail, RecipientPart } from './rails/index.js';
export { draftToFields, LIMITS as PAYOUT_FIELD_LIMITS, validatePayoutForm } from './validation.js';
export type { PayoutFormFields, PayoutValidation } from './validation.js';
export { parseCommandPrefill, payoutKindFromWord } from './prefill.js';
export { scheduleInputShape } from './schedule/input-shape.js';
export { countingApprovers, revokedApprovals } from './policy.js';
export type { ApprovalRequirement } from './policy.js';
export type { PayoutActor, PolicyDecision } from './policy.js';
export { payoutRequestReader, type PayoutRequestReader } from './request-reader.js';
export { PayoutService } from './service.js';
export { checkOneRecipient, findKnownRecipients, isNewRecipient, nameChanged, recipientIdentity } from './recipients.js';
export type { RecipientCheck, RecipientIdentity } from './recipients.js';
export { RecipientBook, type RecipientRefusalCode, type SavedRecipient } from './recipient-book.js';
export type { PayoutRequirement, ReviewedDraft, ScheduledRequests, ScheduleRefusal } from './intake.js';
export { sentPayoutLookup } from './by-transaction.js';
export type { PayoutSettings } from './settings.js';
export type { PayoutServiceOptions, Resubmission } from './service.js';
export type { PayoutRoles, RoleLookup } from './roles.js';
export type { PayoutNotifier } from './transitions.js';
export { ApprovalReminders } from './reminders.js';
export type { ApprovalReminder, ApproverDirectory, ReminderSender } from './reminders.js';
export { BATCH_FILE_ENCODINGS, BATCH_FILE_MAX_BYTES } from './batch/file.js';
export type { BatchCellProblem, BatchColumn, BatchFileEncoding, BatchFileProblem } from './batch/file.js';
export { isPossibleDuplicate, largestRows } from './batch/rows.js';
export { duplicateKey, findEarlierPayouts, repeatsWithin } from './duplicates.js';
export type { EarlierPayout } from './duplicates.js';
export { UNUSUAL_AMOUNT_FACTOR, USUAL_AMOUNT_DAYS, USUAL_AMOUNT_MIN_PAYOUTS } from './signals.js';
export type { ApprovalSignals, UnusualAmount } from './signals.js';
export type { ApprovalAnswers } from './approvals.js';
export { batchSeniorRequirement, requestSeniorRequirement, seniorTier } from './tiers.js';
export type { SeniorDayTotals, SeniorRequirement, SeniorTier } from './tiers.js';
export type { BatchCheck, BatchRow, BatchRowProblem } from './batch/rows.js';
export { checkBatchFile } from './batch/check.js';
export type { BatchFileCheck } from './batch/check.js';
export type { PayoutBatchSettings } from './batch/settings.js';
export { BATCH_ID_PATTERN, PayoutBatchService } from './batch/service.js';
export type { BatchEvent, BatchNotifier } from './batch/service.js';
export type { BatchProgress, BatchRefusal, BatchResult, BatchRowResult, BatchState, PayoutBatch, StoredBatchRow } from './batch/model.js';
export { PayoutSchedules, type OccurrenceResult, type ScheduleInput } from './schedule/service.js';
export { ScheduleReleaser, type ScheduleNotifier } from './schedule/release.js';
export { MAX_OCCURRENCES, MAX_DAYS_AHEAD, SCHEDULE_REPEATS } from './schedule/dates.js';
export type { ScheduleProblem, ScheduleRepeat } from './schedule/dates.js';
export type { Occurrence, OccurrenceHold, OccurrenceState, PayoutSchedule, ScheduledFrom, ScheduleEventName } from './schedule/model.js';
export { isSinglePayout, sendsItself } from './schedule/model.js';
export type { PayoutScheduleSettings } from './schedule/settings.js';
