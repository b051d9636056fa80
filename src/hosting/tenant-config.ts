/**
 * A hosted workspace's configuration: the process's environment (the host's choices: ports, the
 * database, the Fleet API's URL, poll intervals and size limits) with the workspace's own settings
 * over it (roles, channels, thresholds, currencies, operators, time zones, languages), its bot token
 * and its Fleet API key, read by the same schema as a single workspace's environment.
 */
import { ConfigError, loadConfig, type Config } from '../config/config.js';

/** The variables a workspace sets for itself with `/fleet settings`, in the order the form shows them. */
export const WORKSPACE_SETTINGS = [
  'FLEET_VIEWERS',
  'FLEET_REQUESTERS',
  'FLEET_APPROVERS',
  'PAYOUT_SENIOR_APPROVERS',
  'APPROVAL_CHANNEL_ID',
  'FEED_CHANNEL_ID',
  'ALERT_CHANNEL_ID',
  'DIGEST_CHANNEL_ID',
  'PAYOUT_CURRENCIES',
  'PAYOUT_OPERATORS',
  'PAYOUT_MAX_AMOUNT',
  'PAYOUT_DAILY_LIMIT',
  'PAYOUT_DUAL_APPROVAL_ABOVE',
  'PAYOUT_SENIOR_APPROVAL_ABOVE',
  'PAYOUT_NEW_RECIPIENT_APPROVALS',
  'PAYOUT_REQUEST_TTL_HOURS',
  'PAYOUT_RECONCILE_WINDOW_MINUTES',
  'PAYOUT_DUPLICATE_WINDOW_HOURS',
  'PAYOUT_BATCH_MAX_ROWS',
  'PAYOUT_BATCH_RATE',
  'PAYOUT_MENTION_APPROVERS',
  'PAYOUT_APPROVAL_REMINDER_MINUTES',
  'PAYOUT_SCHEDULE_CATCH_UP_MINUTES',
  'PAYOUT_SCHEDULED_NOTICE_MINUTES',
  'BALANCE_ALERT_BELOW',
  'FEED_MAX_BACKLOG',
  'FEED_BACKFILL',
  'RECORDS_MATCH_TOLERANCE_DAYS',
  'DIGEST_TIME',
  'DIGEST_CATCH_UP_DAYS',
  'RUNWAY_WINDOW_DAYS',
  'RUNWAY_ALERT_DAYS',
  'TEAM_TIMEZONE',
  'LEDGER_TIMEZONE',
  'DIGEST_TIMEZONE',
  'DEFAULT_LOCALE',
  'CHANNEL_LOCALE',
] as const;
export type WorkspaceSetting = (typeof WORKSPACE_SETTINGS)[number];
export type WorkspaceSettings = Partial<Record<WorkspaceSetting, string>>;

/** The hosting's own variables, which a workspace's configuration is read without. */
const HOSTING_VARIABLES = [
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
  'KEY_ENCRYPTION_KEYS',
  'DATABASE_OWNER_URL',
  'HOSTED_RETENTION_DAYS',
  'PUBLIC_URL',
  'METRICS_PORT',
  'METRICS_HOST',
  'SLACK_APP_TOKEN',
  'SLACK_BOT_TOKEN',
  'FLEET_API_KEY',
];

export interface WorkspaceSecrets {
  botToken: string;
  fleetApiKey: string;
}

/** One line per setting the schema refuses, by variable, as `/fleet settings` shows them beside each field. */
export type SettingProblems = Partial<Record<WorkspaceSetting, string>>;

export class WorkspaceSettingsError extends Error {
  constructor(readonly problems: SettingProblems) {
    super(`Invalid workspace settings: ${Object.keys(problems).join(', ')}`);
    this.name = 'WorkspaceSettingsError';
  }
}

/**
 * The workspace's configuration; throws WorkspaceSettingsError naming the settings the schema refuses
 * (a problem of the host's own variables was refused at start and cannot appear here).
 */
export function workspaceConfig(hostEnv: Record<string, string | undefined>, settings: WorkspaceSettings, secrets: WorkspaceSecrets): Config {
  const env: Record<string, string | undefined> = { ...hostEnv };
  for (const name of [...HOSTING_VARIABLES, ...WORKSPACE_SETTINGS]) delete env[name];
  for (const name of WORKSPACE_SETTINGS) {
    const value = settings[name]?.trim();
    if (value) env[name] = value;
  }
  env.SLACK_BOT_TOKEN = secrets.botToken;
  env.FLEET_API_KEY = secrets.fleetApiKey;
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems: SettingProblems = {};
    for (const line of error.problems) {
      const colon = line.indexOf(': ');
      const name = line.slice(0, colon) as WorkspaceSetting;
      if (!(WORKSPACE_SETTINGS as readonly string[]).includes(name)) throw error;
      problems[name] = problems[name] ? `${problems[name]}; ${line.slice(colon + 2)}` : line.slice(colon + 2);
    }
    throw new WorkspaceSettingsError(problems);
  }
}

/** Keeps the known settings only, trimmed, the empty ones left out (the default applies). */
export function cleanSettings(values: Record<string, unknown>): WorkspaceSettings {
  const settings: WorkspaceSettings = {};
  for (const name of WORKSPACE_SETTINGS) {
    const value = values[name];
    if (typeof value === 'string' && value.trim() !== '') settings[name] = value.trim();
  }
  return settings;
}
