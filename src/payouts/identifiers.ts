/** Short, readable identifiers for payout requests and generated partner references. */
import { randomInt } from 'node:crypto';

// No 0/O, 1/I/L: people read these ids aloud and copy them from screenshots.
const READABLE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

export function randomReadableCode(length: number): string {
  let code = '';
  for (let index = 0; index < length; index += 1) code += READABLE_ALPHABET[randomInt(READABLE_ALPHABET.length)];
  return code;
}

/** `PR-7K3F9Q`: about 887 million values; the store retries on the rare collision. */
export function newPayoutId(): string {
  return `PR-${randomReadableCode(6)}`;
}

export const PAYOUT_ID_PATTERN = /^PR-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

/** The shape of a generated reference: a typed one in this shape is still taken as typed unless the form left it empty. */
export const GENERATED_REFERENCE_PATTERN = /^PAY-\d{8}-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}$/;

/** `PAY-20250314-7K3F9Q`, dated in UTC, for a request whose reference was left empty. */
export function generateReference(now: Date, code: string = randomReadableCode(6)): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `PAY-${day}-${code}`;
}
