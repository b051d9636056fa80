/**
 * Values the app puts in a button and must get back unchanged: what a person was shown (the balance
 * figures and when they were read), so that "Share in channel" posts exactly those figures without
 * reading the API again. A button's value comes back from the client, so it is sealed with an HMAC
 * under a key only this app holds: a forged or edited value is refused, never posted in the app's name.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** Slack's limit on a button's `value`. */
export const BUTTON_VALUE_MAX = 2000;

export class ValueSeal {
  private readonly key: Buffer;

  /** `secret` is one the app already keeps (its bot token); the key is derived so the token itself is never used as one. */
  constructor(secret: string, purpose = 'fleet-treasury-bot sealed button values') {
    this.key = createHmac('sha256', secret).update(purpose).digest();
  }

  /** `<base64url JSON>.<base64url HMAC>`; undefined when it would not fit in a button. */
  seal(value: unknown): string | undefined {
    const body = Buffer.from(JSON.stringify(value)).toString('base64url');
    const sealed = `${body}.${this.mac(body)}`;
    return sealed.length <= BUTTON_VALUE_MAX ? sealed : undefined;
  }

  /** The value, when the seal holds and it has the expected shape; undefined for anything else. */
  open<T>(sealed: string | undefined, schema: z.ZodType<T>): T | undefined {
    const [body, mac, extra] = (sealed ?? '').split('.');
    if (!body || !mac || extra !== undefined) return undefined;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const parsed = schema.safeParse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
