/**
 * The key-encryption keys of hosted mode, from KEY_ENCRYPTION_KEYS: a comma list of `id:key`, each
 * key 32 bytes in base64. The first wraps every new data key; the others only unwrap what they
 * wrapped before, so the outer key is rotated by putting a new key first, re-wrapping, then
 * dropping the old one — without downtime.
 */
export interface KeyEncryptionKey {
  /** Stored beside each wrapped data key, so that the right key unwraps it after a rotation. */
  id: string;
  key: Buffer;
}

export interface KeyRing {
  /** Wraps new data keys. */
  current: KeyEncryptionKey;
  /** Every key by id, the current one included. */
  byId: ReadonlyMap<string, KeyEncryptionKey>;
}

export const KEY_RING_FORMAT = 'a comma list of id:key, each key 32 random bytes in base64 (openssl rand -base64 32), the first one current';

/** Reads KEY_ENCRYPTION_KEYS; throws an Error whose message says what is wrong, never a key. */
export function parseKeyRing(text: string): KeyRing {
  const byId = new Map<string, KeyEncryptionKey>();
  const entries = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error(`expected ${KEY_RING_FORMAT}`);
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon) : '';
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
      throw new Error(`entry ${index + 1} has no id (letters, digits, - or _, before a colon): expected ${KEY_RING_FORMAT}`);
    const encoded = entry.slice(colon + 1);
    const key = /^[A-Za-z0-9+/]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) throw new Error(`key ${id} is not 32 bytes in base64: expected ${KEY_RING_FORMAT}`);
    if (byId.has(id)) throw new Error(`key id ${id} appears twice`);
    byId.set(id, { id, key });
  }
  const current = byId.get(entries[0]!.slice(0, entries[0]!.indexOf(':')))!;
  return { current, byId };
}
