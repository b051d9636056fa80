/** Key rings and log capture for the hosting tests. */
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { parseKeyRing, type KeyRing } from '../../src/hosting/key-ring.js';

/** A key-encryption key as KEY_ENCRYPTION_KEYS spells it: `id:base64`. */
export const kekEntry = (id: string): string => `${id}:${randomBytes(32).toString('base64')}`;

export const ringOf = (...entries: string[]): KeyRing => parseKeyRing(entries.join(','));

/** A logger at debug level whose lines land in `lines`. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

/** A Slack-shaped team id of its own per call, so tests sharing a database do not collide. */
export const newTeamId = (): string => `T${randomBytes(5).toString('hex').toUpperCase()}`;
