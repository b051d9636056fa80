/**
 * The app's configuration: one zod schema over the environment, parsed once at start.
 * Nothing else in the app reads `process.env`. Problems are reported one line per variable,
 * naming what it expects and never echoing the value (several are secrets).
 */
import { z } from 'zod';
import type { DigestSettings } from '../digest/settings.js';
import type { FeedSettings } from '../feed/settings.js';
import type { LedgerExportSettings } from '../ledger/exporter.js';
import type { LedgerSettings } from '../ledger/settings.js';
import type { Locale } from '../i18n/locale.js';
import type { PayoutBatchSettings } from '../payouts/batch/settings.js';
import { DUAL_APPROVAL_APPROVERS } from '../payouts/policy.js';
import { DEFAULT_FLEET_REQUESTS_PER_SECOND } from '../fleet/budget.js';
import type { PayoutSettings } from '../payouts/settings.js';
import type { PayoutScheduleSettings } from '../payouts/schedule/settings.js';
import type { RecordsSettings } from '../partner-records/settings.js';
import type { RunwaySettings } from '../runway/settings.js';
import {
  type AccessList,
  LOG_LEVELS,
  optionalText,
  url,
  integer,
  channelId,
  accessList,
  PER_CURRENCY_PAYOUT_SETTINGS,
  codeList,
  currencyAmounts,
  payoutAmountsSchema,
  flag,
  timeZone,
  optionalTimeZone,
  timeOfDay,
  locale,
} from './config-values.js';
import { hostedModeProblems, hostedModeSchema, isHostedMode, readHostingConfig, type HostingConfig } from './hosted-mode.js';

export type { AccessList, HostingConfig };

export const envSchema = z.object({
  SLACK_BOT_TOKEN: z
    .string({ error: 'required: the bot token, starting with xoxb-' })
    .trim()
    .refine((value) => /^xoxb-\S+$/.test(value), 'expected a bot token starting with xoxb-'),
  // Checked with the other variables it depends on (below): Socket Mode does not use it.
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText.refine((value) => value === undefined || /^xapp-\S+$/.test(value), 'expected an app-level token starting with xapp-'),
  SLACK_API_URL: optionalText.pipe(z.union([z.undefined(), url('an http(s) URL such as https://slack.com/api/')])),
  // An org-wide install's token reads a user group only with the team_id of the workspace it belongs to.
  SLACK_TEAM_ID: optionalText.refine((value) => value === undefined || /^T[A-Z0-9]{2,}$/.test(value), 'expected a workspace ID such as T0123456789'),
  PORT: integer(0, 65535, 3000),
  HOST: optionalText,
  FLEET_API_URL: z
    .string({ error: 'required: the Fleet API base URL, or the word sandbox' })
    .trim()
    .refine((value) => value === 'sandbox' || /^https?:\/\/[^\s]+$/.test(value), 'expected an http(s) URL or the word sandbox'),
  FLEET_API_KEY: optionalText,
  FLEET_REQUESTS_PER_SECOND: integer(0, 10_000, DEFAULT_FLEET_REQUESTS_PER_SECOND),
  FLEET_VIEWERS: accessList,
  FLEET_REQUESTERS: accessList,
  FLEET_APPROVERS: accessList,
  LOG_LEVEL: optionalText.refine(
    (value): value is (typeof LOG_LEVELS)[number] | undefined => value === undefined || (LOG_LEVELS as readonly string[]).includes(value),
    `expected one of ${LOG_LEVELS.join(', ')}`,
  ),
  NODE_ENV: optionalText,
  DATABASE_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), 'expected a postgres:// connection URL'),
  DATA_DIR: optionalText,
  ...hostedModeSchema,
  APPROVAL_CHANNEL_ID: channelId,
  PAYOUT_OPERATORS: codeList(['VODACOM_MPESA', 'ORANGE_MONEY', 'AIRTEL_MONEY', 'AFRICELL_MONEY']),
  ...payoutAmountsSchema.shape,
  PAYOUT_REQUEST_TTL_HOURS: integer(1, 24 * 30, 24),
  PAYOUT_RECONCILE_WINDOW_MINUTES: integer(1, 24 * 60, 10),
  PAYOUT_NEW_RECIPIENT_APPROVALS: integer(1, 5, 2),
  PAYOUT_MENTION_APPROVERS: flag(true),
  PAYOUT_APPROVAL_REMINDER_MINUTES: integer(0, 24 * 60 * 30, 60),
  PAYOUT_DUPLICATE_WINDOW_HOURS: integer(1, 24 * 30, 72),
  PAYOUT_SENIOR_APPROVAL_ABOVE: currencyAmounts(''),
  PAYOUT_SENIOR_APPROVERS: accessList,
  PAYOUT_BATCH_MAX_ROWS: integer(1, 5000, 500),
  PAYOUT_BATCH_RATE: integer(1, 1000, 2),
  TEAM_TIMEZONE: timeZone,
  PAYOUT_SCHEDULE_CATCH_UP_MINUTES: integer(0, 24 * 60 * 7, 360),
  PAYOUT_SCHEDULED_NOTICE_MINUTES: integer(0, 24 * 60, 60),
  FEED_CHANNEL_ID: channelId,
  FEED_POLL_INTERVAL_SECONDS: integer(5, 3600, 15),
  FEED_MAX_BACKLOG: integer(1, 100_000, 1000),
  FEED_BACKFILL: integer(0, 10_000, 0),
  BALANCE_ALERT_BELOW: currencyAmounts(''),
  ALERT_CHANNEL_ID: channelId,
  SANDBOX_ACTIVITY_SECONDS: integer(0, 3600, 0),
  METRICS_PORT: integer(0, 65535, -1),
  METRICS_HOST: optionalText.refine(
    (value) => value === undefined || /^[A-Za-z0-9.:_-]+$/.test(value),
    'expected a listen address such as 127.0.0.1, 0.0.0.0 or a host name (no scheme, no port)',
  ),
  LEDGER_ENABLED: flag(true),
  LEDGER_POLL_SECONDS: integer(5, 3600, 15),
  LEDGER_HISTORY_PAGE_DELAY_MS: integer(0, 60_000, 1000),
  LEDGER_SWEEP_MINUTES: integer(0, 24 * 60, 2),
  LEDGER_REWALK_HOURS: integer(0, 24 * 30, 24),
  LEDGER_TIMEZONE: optionalTimeZone,
  EXPORT_MAX_ROWS: integer(1, 10_000_000, 500_000),
  RECORDS_MAX_BYTES: integer(1024, 100 * 1024 * 1024, 10 * 1024 * 1024),
  RECORDS_MAX_ROWS: integer(1, 1_000_000, 50_000),
  RECORDS_MATCH_TOLERANCE_DAYS: integer(0, 31, 1),
  DIGEST_CHANNEL_ID: channelId,
  DIGEST_TIME: timeOfDay({ hour: 8, minute: 0 }),
  DIGEST_TIMEZONE: optionalTimeZone,
  DIGEST_CATCH_UP_DAYS: integer(0, 31, 3),
  RUNWAY_WINDOW_DAYS: integer(1, 90, 14),
  RUNWAY_ALERT_DAYS: integer(0, 365, 7),
  DEFAULT_LOCALE: locale,
  CHANNEL_LOCALE: locale,
});

/**
 * The rules that tie variables together, checked on the raw environment so that they are reported in
 * the same round as every other problem (a schema refinement runs only once all fields are valid).
 */
function problemsBetweenVariables(env: Record<string, string | undefined>): { name: string; message: string }[] {
  const text = (name: string) => env[name]?.trim() || undefined;
  const problems: { name: string; message: string }[] = [];
  const secret = text('SLACK_SIGNING_SECRET');
  if (text('SLACK_APP_TOKEN') === undefined) {
    if (secret === undefined) {
      problems.push({ name: 'SLACK_SIGNING_SECRET', message: "required in HTTP mode (when SLACK_APP_TOKEN is not set): the app's signing secret" });
    } else if (!/^[A-Za-z0-9]{16,}$/.test(secret)) {
      problems.push({ name: 'SLACK_SIGNING_SECRET', message: "expected the app's signing secret (letters and digits, from Basic Information)" });
    }
  }
  const metricsPort = text('METRICS_PORT');
  if (text('SLACK_APP_TOKEN') === undefined && metricsPort !== undefined && metricsPort !== '0' && Number(metricsPort) === Number(text('PORT') ?? 3000)) {
    problems.push({
      name: 'METRICS_PORT',
      message: "expected a port other than PORT's: metrics and readiness details are served apart from the port that faces Slack",
    });
  }
  const fleetUrl = text('FLEET_API_URL');
  // Hosted mode keeps each workspace's key in the database (hostedModeProblems refuses this one).
  if (!isHostedMode(env) && fleetUrl !== undefined && fleetUrl !== 'sandbox' && text('FLEET_API_KEY') === undefined) {
    problems.push({ name: 'FLEET_API_KEY', message: 'required unless FLEET_API_URL=sandbox: the partner API key' });
  }
  const payouts = payoutAmountsSchema.safeParse(env);
  if (payouts.success) {
    for (const name of PER_CURRENCY_PAYOUT_SETTINGS) {
      const missing = payouts.data.PAYOUT_CURRENCIES.filter((currency) => !payouts.data[name].has(currency));
      if (missing.length > 0) problems.push({ name, message: `expected an amount for every payout currency; missing ${missing.join(', ')}` });
    }
  }
  problems.push(...approverShortfalls(env), ...seniorTierProblems(env), ...hostedModeProblems(env));
  return problems;
}

const approverListsSchema = z.object({
  APPROVAL_CHANNEL_ID: channelId,
  FLEET_APPROVERS: accessList,
  PAYOUT_NEW_RECIPIENT_APPROVALS: integer(1, 5, 2),
  PAYOUT_SENIOR_APPROVAL_ABOVE: currencyAmounts(''),
  PAYOUT_SENIOR_APPROVERS: accessList,
});

/**
 * The senior tier: its amounts and its approvers come together; senior approvers are people or user
 * groups (not `*`, which would make every approver senior); a person named must also be in
 * FLEET_APPROVERS when that list names people only.
 */
function seniorTierProblems(env: Record<string, string | undefined>): { name: string; message: string }[] {
  const parsed = approverListsSchema.safeParse(env);
  if (!parsed.success) return [];
  const { PAYOUT_SENIOR_APPROVAL_ABOVE: above, PAYOUT_SENIOR_APPROVERS: seniors, FLEET_APPROVERS: approvers } = parsed.data;
  const named = seniors.users.size + seniors.groups.size;
  if (seniors.everyone) {
    return [
      {
        name: 'PAYOUT_SENIOR_APPROVERS',
        message: 'expected Slack user IDs (U…, W…) or user-group IDs (S…), not *: a senior approver is some of the approvers',
      },
    ];
  }
  if (above.size > 0 && named === 0) {
    return [
      {
        name: 'PAYOUT_SENIOR_APPROVERS',
        message: 'required when PAYOUT_SENIOR_APPROVAL_ABOVE is set: the user IDs or user groups whose approval a payout above it needs',
      },
    ];
  }
  if (above.size === 0 && named > 0) {
    return [
      {
        name: 'PAYOUT_SENIOR_APPROVAL_ABOVE',
        message: 'required when PAYOUT_SENIOR_APPROVERS is set: CURRENCY:AMOUNT pairs above which a senior approval is needed, like USD:10000,EUR:9000',
      },
    ];
  }
  const payouts = payoutAmountsSchema.safeParse(env);
  const problems: { name: string; message: string }[] = [];
  if (above.size > 0 && payouts.success) {
    const missing = payouts.data.PAYOUT_CURRENCIES.filter((currency) => !above.has(currency));
    if (missing.length > 0)
      problems.push({ name: 'PAYOUT_SENIOR_APPROVAL_ABOVE', message: `expected an amount for every payout currency; missing ${missing.join(', ')}` });
  }
  if (!approvers.everyone && approvers.groups.size === 0) {
    const outside = [...seniors.users].filter((user) => !approvers.users.has(user));
    if (outside.length > 0) {
      problems.push({
        name: 'PAYOUT_SENIOR_APPROVERS',
        message: `expected approvers only; ${outside.join(', ')} not in FLEET_APPROVERS (a senior approver must also be an approver)`,
      });
    }
  }
  return problems;
}

/**
 * Rules that need more different approvers than FLEET_APPROVERS names, when it names user IDs only
 * and payouts are on (APPROVAL_CHANNEL_ID): such a payout could never be approved by anyone. What
 * only some requests lack (a requester who is also an approver never approves their own) and lists
 * with user groups (members known only at run time) are said on the approval message instead.
 */
function approverShortfalls(env: Record<string, string | undefined>): { name: string; message: string }[] {
  const parsed = approverListsSchema.safeParse(env);
  if (!parsed.success) return [];
  const { APPROVAL_CHANNEL_ID: channel, FLEET_APPROVERS: approvers } = parsed.data;
  if (channel === undefined || approvers.everyone || approvers.groups.size > 0 || approvers.users.size === 0) return [];
  const named = approvers.users.size;
  // One line per rule; the senior tier (who must be approvers, named with its amounts) is checked in seniorTierProblems.
  const rules = [
    { name: 'PAYOUT_DUAL_APPROVAL_ABOVE', required: DUAL_APPROVAL_APPROVERS, what: 'above its amounts' },
    { name: 'PAYOUT_NEW_RECIPIENT_APPROVALS', required: parsed.data.PAYOUT_NEW_RECIPIENT_APPROVALS, what: 'for a recipient never paid before' },
  ];
  return rules
    .filter((rule) => rule.required > named)
    .map((rule) => ({
      name: rule.name,
      message:
        `a payout ${rule.what} needs ${rule.required} different approvers, but FLEET_APPROVERS names ${named}; ` +
        'list more approvers in FLEET_APPROVERS (or a user group)' +
        (rule.name === 'PAYOUT_NEW_RECIPIENT_APPROVALS' ? `, or set PAYOUT_NEW_RECIPIENT_APPROVALS to ${named} or less` : ''),
    }));
}

export interface Config {
  slack: {
    /** Empty in hosted mode, where each workspace's bot token comes from its installation. */
    botToken: string;
    signingSecret: string | undefined;
    /** Set: Socket Mode. Unset: HTTP mode on `port`. */
    appToken: string | undefined;
    apiUrl: string | undefined;
    /** The workspace whose user groups the access lists name: sent as `team_id` (an org-wide install needs it). */
    teamId: string | undefined;
    port: number;
    host: string | undefined;
  };
  fleet: {
    /** `'sandbox'` starts the embedded sandbox API. */
    url: string;
    apiKey: string | undefined;
    /** FLEET_REQUESTS_PER_SECOND: the key's request budget; undefined (0) for none. */
    requestsPerSecond: number | undefined;
    sandboxActivitySeconds: number;
  };
  /** `seniorApprovers`: PAYOUT_SENIOR_APPROVERS, who give the approval a payout above the senior tier needs. */
  access: { viewers: AccessList; requesters: AccessList; approvers: AccessList; seniorApprovers: AccessList };
  logLevel: (typeof LOG_LEVELS)[number];
  prettyLogs: boolean;
  /** `ownerUrl`: DATABASE_OWNER_URL, the role that runs the migrations (DATABASE_URL's when unset). */
  store: { databaseUrl: string | undefined; dataDir: string; ownerUrl?: string };
  /** Hosted mode (many workspaces installed from an "Add to Slack" link); undefined for one workspace. */
  hosting?: HostingConfig;
  /** The domain's settings, and where the Slack layer posts requests for approval. */
  payouts: PayoutSettings & { approvalChannelId: string | undefined };
  /** Bulk payouts from a file: how many rows at most, and how fast they are sent. */
  payoutBatches: PayoutBatchSettings;
  payoutSchedule: PayoutScheduleSettings;
  /**
   * Telling approvers: whether a new request's approval message mentions them, and how many minutes
   * before expiry those who have not decided get a reminder (0: none).
   */
  approverNotices: { mention: boolean; reminderMinutes: number };
  feed: FeedSettings;
  /**
   * The operators' server for /healthz, the detailed /readyz and /metrics, in both modes: its port
   * (none when unset) and the address it listens on (127.0.0.1 unless METRICS_HOST says otherwise).
   */
  ops: { metricsPort: number | undefined; metricsHost: string };
  ledger: LedgerSettings;
  ledgerExport: LedgerExportSettings;
  /** `/fleet reconcile`: the records file's limits and the match's tolerance of days. */
  records: RecordsSettings;
  /** The daily digest; posted only when `channelId` is set. */
  digest: DigestSettings;
  /** The runway's window and alert (days counted in the digest's zone, the team's); its alerts go to the feed's alert channel. */
  runway: RunwaySettings & { alertChannelId: string | undefined };
  /**
   * `defaultLocale`: the language of a person who chose none and whose Slack locale the app does not
   * speak (DEFAULT_LOCALE). `channelLocale`: the language of messages to channels (CHANNEL_LOCALE).
   */
  language: { defaultLocale: Locale; channelLocale: Locale };
}

/** Raised when the environment is unusable; `problems` has one line per variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

// Hosted mode has no workspace of its own: the bot token is each installation's.
const hostedEnvSchema = envSchema.extend({ SLACK_BOT_TOKEN: optionalText.transform((value) => value ?? '') });

export function loadConfig(env: Record<string, string | undefined>): Config {
  const result = (isHostedMode(env) ? hostedEnvSchema : envSchema).safeParse(env);
  const problems = [
    ...(result.success
      ? []
      : result.error.issues.map((issue) => {
          const name = String(issue.path[0] ?? 'environment');
          const message = issue.code === 'invalid_type' && env[name] === undefined ? issue.message.replace(/^Invalid input.*$/, 'required') : issue.message;
          return `${name}: ${message}`;
        })),
    ...problemsBetweenVariables(env).map(({ name, message }) => `${name}: ${message}`),
  ];
  if (!result.success || problems.length > 0) throw new ConfigError([...new Set(problems)]);
  const e = result.data;
  const hosting = readHostingConfig(env, e);
  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      // Socket Mode does not use it (and `.env.example`'s placeholder must not be mistaken for one).
      signingSecret: e.SLACK_APP_TOKEN ? undefined : e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
      teamId: e.SLACK_TEAM_ID,
      port: e.PORT,
      host: e.HOST,
    },
    fleet: {
      url: e.FLEET_API_URL,
      apiKey: e.FLEET_API_KEY,
      requestsPerSecond: e.FLEET_REQUESTS_PER_SECOND === 0 ? undefined : e.FLEET_REQUESTS_PER_SECOND,
      sandboxActivitySeconds: e.SANDBOX_ACTIVITY_SECONDS,
    },
    access: { viewers: e.FLEET_VIEWERS, requesters: e.FLEET_REQUESTERS, approvers: e.FLEET_APPROVERS, seniorApprovers: e.PAYOUT_SENIOR_APPROVERS },
    logLevel: e.LOG_LEVEL ?? 'info',
    prettyLogs: e.NODE_ENV === 'development',
    store: { databaseUrl: e.DATABASE_URL, dataDir: e.DATA_DIR ?? './data', ...(e.DATABASE_OWNER_URL ? { ownerUrl: e.DATABASE_OWNER_URL } : {}) },
    ...(hosting ? { hosting } : {}),
    payouts: {
      approvalChannelId: e.APPROVAL_CHANNEL_ID,
      operators: e.PAYOUT_OPERATORS,
      currencies: e.PAYOUT_CURRENCIES,
      maxAmount: e.PAYOUT_MAX_AMOUNT,
      dailyLimit: e.PAYOUT_DAILY_LIMIT,
      dualApprovalAbove: e.PAYOUT_DUAL_APPROVAL_ABOVE,
      requestTtlHours: e.PAYOUT_REQUEST_TTL_HOURS,
      settleWindowMinutes: e.PAYOUT_RECONCILE_WINDOW_MINUTES,
      newRecipientApprovals: e.PAYOUT_NEW_RECIPIENT_APPROVALS,
      duplicateWindowHours: e.PAYOUT_DUPLICATE_WINDOW_HOURS,
      seniorApprovalAbove: e.PAYOUT_SENIOR_APPROVAL_ABOVE,
      timeZone: e.TEAM_TIMEZONE,
    },
    payoutSchedule: {
      timeZone: e.TEAM_TIMEZONE,
      catchUpMinutes: e.PAYOUT_SCHEDULE_CATCH_UP_MINUTES,
      noticeMinutes: e.PAYOUT_SCHEDULED_NOTICE_MINUTES,
    },
    payoutBatches: { maxRows: e.PAYOUT_BATCH_MAX_ROWS, ratePerSecond: e.PAYOUT_BATCH_RATE },
    approverNotices: { mention: e.PAYOUT_MENTION_APPROVERS, reminderMinutes: e.PAYOUT_APPROVAL_REMINDER_MINUTES },
    feed: {
      channelId: e.FEED_CHANNEL_ID,
      pollIntervalSeconds: e.FEED_POLL_INTERVAL_SECONDS,
      maxBacklog: e.FEED_MAX_BACKLOG,
      backfill: e.FEED_BACKFILL,
      balanceAlertBelow: e.BALANCE_ALERT_BELOW,
      alertChannelId: e.ALERT_CHANNEL_ID ?? e.FEED_CHANNEL_ID,
    },
    ops: { metricsPort: e.METRICS_PORT === -1 ? undefined : e.METRICS_PORT, metricsHost: e.METRICS_HOST ?? '127.0.0.1' },
    ledger: {
      enabled: e.LEDGER_ENABLED,
      pollIntervalSeconds: e.LEDGER_POLL_SECONDS,
      historyPageDelayMs: e.LEDGER_HISTORY_PAGE_DELAY_MS,
      sweepMinutes: e.LEDGER_SWEEP_MINUTES,
      rewalkHours: e.LEDGER_REWALK_HOURS,
      timeZone: e.LEDGER_TIMEZONE ?? e.TEAM_TIMEZONE,
    },
    ledgerExport: { maxRows: e.EXPORT_MAX_ROWS },
    records: { maxBytes: e.RECORDS_MAX_BYTES, maxRows: e.RECORDS_MAX_ROWS, toleranceDays: e.RECORDS_MATCH_TOLERANCE_DAYS },
    digest: { channelId: e.DIGEST_CHANNEL_ID, time: e.DIGEST_TIME, timeZone: e.DIGEST_TIMEZONE ?? e.TEAM_TIMEZONE, catchUpDays: e.DIGEST_CATCH_UP_DAYS },
    runway: {
      windowDays: e.RUNWAY_WINDOW_DAYS,
      alertDays: e.RUNWAY_ALERT_DAYS,
      timeZone: e.DIGEST_TIMEZONE ?? e.TEAM_TIMEZONE,
      alertChannelId: e.ALERT_CHANNEL_ID ?? e.FEED_CHANNEL_ID,
    },
    language: { defaultLocale: e.DEFAULT_LOCALE ?? 'en', channelLocale: e.CHANNEL_LOCALE ?? e.DEFAULT_LOCALE ?? 'en' },
  };
}
