/**
 * Hosted mode: the app installed from an "Add to Slack" link into many workspaces, each with its own
 * bot token and Fleet API key kept in the database. It is on as soon as one of its four variables is
 * set; then all four are needed, and the variables of a single workspace are refused.
 */
import { z } from 'zod';
import { parseKeyRing, type KeyRing } from '../hosting/key-ring.js';
import { optionalText } from './config-values.js';

export const HOSTED_MODE_VARIABLES = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET', 'KEY_ENCRYPTION_KEYS'] as const;

export interface HostingConfig {
  /** The Slack app's Client ID and Client Secret (Basic Information → App Credentials), for oauth.v2.access. */
  clientId: string;
  clientSecret: string;
  /** Signs the OAuth state that ties an install's callback to the browser that started it. */
  stateSecret: string;
  /** KEY_ENCRYPTION_KEYS: wraps each workspace's data key. */
  keyRing: KeyRing;
  /** HOSTED_RETENTION_DAYS: how long a workspace's data is kept after it uninstalls the app. */
  retentionDays: number;
  /** The app's URL as Slack and browsers reach it, without a trailing slash: the install and redirect URLs start with it. */
  publicUrl: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** PUBLIC_URL: an https URL, or http on the loopback for local tests; no query nor fragment. Undefined when not one. */
export function readPublicUrl(text: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return undefined;
  }
  const secure = parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname));
  if (!secure || parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') return undefined;
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

export const PUBLIC_URL_FORMAT = 'an https URL of the app as Slack reaches it, such as https://fleet.example.com (http only for 127.0.0.1 or localhost)';

/** The hosted-mode variables of the schema; cross-variable rules are in `hostedModeProblems`. */
export const hostedModeSchema = {
  SLACK_CLIENT_ID: optionalText.refine(
    (value) => value === undefined || /^\d+\.\d+$/.test(value),
    "expected the app's Client ID (digits, a dot, digits, from Basic Information → App Credentials)",
  ),
  SLACK_CLIENT_SECRET: optionalText.refine(
    (value) => value === undefined || /^[A-Za-z0-9]{16,}$/.test(value),
    "expected the app's Client Secret (letters and digits, from Basic Information → App Credentials)",
  ),
  SLACK_STATE_SECRET: optionalText.refine((value) => value === undefined || value.length >= 32, 'expected at least 32 characters (openssl rand -hex 32)'),
  // Read by parseKeyRing in hostedModeProblems, whose message never holds a key.
  KEY_ENCRYPTION_KEYS: optionalText,
  DATABASE_OWNER_URL: optionalText.refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), 'expected a postgres:// connection URL'),
  HOSTED_RETENTION_DAYS: optionalText.transform((value, ctx) => {
    if (value === undefined) return 30;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > 3650) {
      ctx.addIssue({ code: 'custom', message: 'expected a whole number from 1 to 3650' });
      return z.NEVER;
    }
    return parsed;
  }),
  PUBLIC_URL: optionalText.refine((value) => value === undefined || readPublicUrl(value) !== undefined, `expected ${PUBLIC_URL_FORMAT}`),
};

/** Whether the environment asks for hosted mode: one of its four variables is set. */
export function isHostedMode(env: Record<string, string | undefined>): boolean {
  return HOSTED_MODE_VARIABLES.some((name) => (env[name]?.trim() ?? '') !== '');
}

/** The rules of hosted mode, reported with every other problem; none when it is off. */
export function hostedModeProblems(env: Record<string, string | undefined>): { name: string; message: string }[] {
  const text = (name: string) => env[name]?.trim() || undefined;
  const problems: { name: string; message: string }[] = [];
  if (text('DATABASE_OWNER_URL') !== undefined && text('DATABASE_URL') === undefined) {
    problems.push({ name: 'DATABASE_OWNER_URL', message: 'set only with DATABASE_URL: the role that runs the migrations of that database' });
  }
  if (!isHostedMode(env)) return problems;
  const what: Record<(typeof HOSTED_MODE_VARIABLES)[number], string> = {
    SLACK_CLIENT_ID: "the app's Client ID, from Basic Information → App Credentials",
    SLACK_CLIENT_SECRET: "the app's Client Secret, from Basic Information → App Credentials",
    SLACK_STATE_SECRET: 'a random secret of at least 32 characters (openssl rand -hex 32)',
    KEY_ENCRYPTION_KEYS: 'the key-encryption keys, id:key (openssl rand -base64 32)',
  };
  for (const name of HOSTED_MODE_VARIABLES) {
    if (text(name) === undefined)
      problems.push({ name, message: `required in hosted mode (when one of ${HOSTED_MODE_VARIABLES.join(', ')} is set): ${what[name]}` });
  }
  const keys = text('KEY_ENCRYPTION_KEYS');
  if (keys !== undefined) {
    try {
      parseKeyRing(keys);
    } catch (error) {
      problems.push({ name: 'KEY_ENCRYPTION_KEYS', message: error instanceof Error ? error.message : 'expected a key ring' });
    }
  }
  if (text('DATABASE_URL') === undefined) problems.push({ name: 'DATABASE_URL', message: 'required in hosted mode: hosted mode needs Postgres' });
  if (text('DATABASE_OWNER_URL') === undefined) {
    problems.push({
      name: 'DATABASE_OWNER_URL',
      message: "required in hosted mode: the role that owns the tables and runs the migrations, so that DATABASE_URL's role is confined by row-level security",
    });
  }
  if (text('PUBLIC_URL') === undefined) problems.push({ name: 'PUBLIC_URL', message: `required in hosted mode: ${PUBLIC_URL_FORMAT}` });
  if (text('SLACK_APP_TOKEN') !== undefined) {
    problems.push({ name: 'SLACK_APP_TOKEN', message: 'not used in hosted mode, which receives Slack over HTTP: unset it' });
    if (text('SLACK_SIGNING_SECRET') === undefined)
      problems.push({ name: 'SLACK_SIGNING_SECRET', message: "required in hosted mode: the app's signing secret" });
  }
  for (const name of ['SLACK_BOT_TOKEN', 'FLEET_API_KEY']) {
    if (text(name) !== undefined) {
      problems.push({ name, message: 'not used in hosted mode, where it is set per workspace by the install and /fleet connect: unset it' });
    }
  }
  return problems;
}

/** The hosting settings of a valid environment in hosted mode (checked by `hostedModeProblems` first). */
export function readHostingConfig(
  env: Record<string, string | undefined>,
  parsed: { SLACK_CLIENT_ID?: string; SLACK_CLIENT_SECRET?: string; SLACK_STATE_SECRET?: string; HOSTED_RETENTION_DAYS: number; PUBLIC_URL?: string },
): HostingConfig | undefined {
  if (!isHostedMode(env)) return undefined;
  return {
    clientId: parsed.SLACK_CLIENT_ID!,
    clientSecret: parsed.SLACK_CLIENT_SECRET!,
    stateSecret: parsed.SLACK_STATE_SECRET!,
    keyRing: parseKeyRing(env.KEY_ENCRYPTION_KEYS!.trim()),
    retentionDays: parsed.HOSTED_RETENTION_DAYS,
    publicUrl: readPublicUrl(parsed.PUBLIC_URL!)!,
  };
}
