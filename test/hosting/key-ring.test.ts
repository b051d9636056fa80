import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseKeyRing } from '../../src/hosting/key-ring.js';

const key = () => randomBytes(32).toString('base64');

describe('KEY_ENCRYPTION_KEYS', () => {
  it('makes the first key current and keeps the others for unwrapping', () => {
    const [a, b] = [key(), key()];
    const ring = parseKeyRing(` k2:${a} , k1:${b}`);
    expect(ring.current.id).toBe('k2');
    expect(ring.current.key.equals(Buffer.from(a, 'base64'))).toBe(true);
    expect([...ring.byId.keys()]).toEqual(['k2', 'k1']);
  });

  it.each([
    ['', 'expected a comma list'],
    [key(), 'entry 1 has no id'],
    [`k1:${randomBytes(16).toString('base64')}`, 'key k1 is not 32 bytes'],
    ['k1:not base64!', 'key k1 is not 32 bytes'],
    [`k1:${key()},k1:${key()}`, 'key id k1 appears twice'],
  ])('refuses %j, saying why and never echoing a key', (text, message) => {
    let thrown: Error | undefined;
    try {
      parseKeyRing(text);
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.message).toContain(message);
    for (const part of text.split(/[,:]/).filter((part) => part.length > 20)) expect(thrown?.message).not.toContain(part);
  });
});
