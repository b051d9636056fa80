/**
 * Function tokens at rest: a workflow step's token is stored (so that another replica, or the app
 * after a restart, can complete the step) sealed with AES-256-GCM under a key derived from a secret
 * the app already keeps (its bot token), so that a database dump holds no usable token.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export class TokenBox {
  private readonly key: Buffer;

  constructor(secret: string, purpose = 'fleet-treasury-bot workflow step tokens') {
    this.key = createHmac('sha256', secret).update(purpose).digest();
  }

  /** `<iv>.<ciphertext>.<tag>`, base64url. */
  seal(token: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
    return [iv, body, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.');
  }

  /** The token, or undefined when the seal does not hold (another key, a damaged value). */
  open(sealed: string): string | undefined {
    const [iv, body, tag] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !body || !tag || iv.length !== 12 || tag.length !== 16) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
