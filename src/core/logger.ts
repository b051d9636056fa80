/**
 * Structured logging with pino. Secrets are removed twice: by field path (tokens, keys,
 * Authorization headers) and, as a last line of defence, by value from every line written,
 * so a secret inside an error message or a URL never reaches the log.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

const REDACTED_PATHS = [
  'token',
  'apiKey',
  'api_key',
  'signingSecret',
  'appToken',
  'botToken',
  'authorization',
  'Authorization',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.signingSecret',
  '*.appToken',
  '*.botToken',
  '*.authorization',
  '*.Authorization',
  'bot_access_token',
  '*.bot_access_token',
  'functionBotAccessToken',
  '*.functionBotAccessToken',
  'headers.authorization',
  'req.headers.authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
];

// Slack token shapes (workflow steps' function tokens are `xwfp-`), so that one we were not told about is still hidden.
const TOKEN_PATTERN = /\bx(?:ox[abposr]|app|wfp)-[A-Za-z0-9-]+/g;

export interface LoggerOptions {
  level: string;
  pretty?: boolean;
  /** Values that must never appear in a log line (tokens, API keys, signing secret). */
  secrets?: Array<string | undefined>;
  /** Where lines go; defaults to stdout. Tests pass a capturing stream. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? []).filter((value): value is string => !!value && value.length >= 6);
  const scrub = (line: string): string => {
    let clean = line.replace(TOKEN_PATTERN, '[redacted]');
    for (const secret of secrets) clean = clean.split(secret).join('[redacted]');
    return clean;
  };
  const destination = options.destination ?? (options.pretty ? pretty({ colorize: true, sync: true }) : pino.destination(1));
  return pino(
    {
      level: options.level,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      hooks: { streamWrite: scrub },
    },
    destination,
  );
}
