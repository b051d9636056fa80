/**
 * Envelope encryption of each tenant's secrets: a random data key per tenant seals them (AES-256-GCM,
 * bound to the tenant and the purpose), and that data key is stored wrapped by a key-encryption key of
 * KEY_ENCRYPTION_KEYS, named by its id so that the outer key can be rotated without downtime.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import NodeCache from 'node-cache';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Db, Queryable } from '../store/db.js';
import type { KeyRing } from './key-ring.js';
import { bytes, checkTenantId, inTenant } from './tenant-scope.js';

/** What a sealed value is for: a value sealed for one purpose does not open as another. */
export type SealPurpose = 'slack-installation' | 'fleet-api-key';
/** The secrets derived from a tenant's data key (`derive`). */
export type DerivedPurpose = 'button-seal' | 'workflow-tokens';

/** Raised when a data key is wrapped by a key-encryption key the ring lacks; names the id, never a key. */
export class UnknownKeyEncryptionKeyError extends Error {
  constructor(readonly kekIds: string[]) {
    super(
      `data keys are wrapped with key-encryption key ${kekIds.map((id) => `"${id}"`).join(', ')}, which KEY_ENCRYPTION_KEYS does not hold: ` +
        'put it back after the current key, then let the data keys be re-wrapped before dropping it',
    );
    this.name = 'UnknownKeyEncryptionKeyError';
  }
}

/** Raised when a sealed value does not open: altered, or sealed for another tenant, purpose or data key. */
export class SealedValueError extends Error {
  constructor(reason: string) {
    super(`cannot open the sealed value: ${reason}`);
    this.name = 'SealedValueError';
  }
}

export interface RewrapCounts {
  /** Data keys now wrapped by the current key-encryption key that were not before. */
  rewrapped: number;
  /** Data keys that were already. */
  alreadyCurrent: number;
}

export interface KeyVaultOptions {
  db: Db;
  keyRing: KeyRing;
  clock?: Clock;
  logger?: Logger;
  /** How long an unwrapped data key stays in memory; 120 seconds unless told. */
  cacheSeconds?: number;
}

// Sealed value: version (1) | data key fingerprint (8) | IV (12) | tag (16) | ciphertext. The first nine bytes are authenticated too.
// Wrapped data key: version (1) | IV (12) | tag (16) | ciphertext (32).
const VERSION = 1;
const FINGERPRINT = 8;
const IV = 12;
const TAG = 16;
const HEADER = 1 + FINGERPRINT;
const DATA_KEY = 32;

interface DataKey {
  key: Buffer;
  fingerprint: Buffer;
}

export class KeyVault {
  private readonly db: Db;
  private readonly keyRing: KeyRing;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly cache: NodeCache;

  constructor(options: KeyVaultOptions) {
    this.db = options.db;
    this.keyRing = options.keyRing;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger;
    // Expired keys are dropped by the check every minute, not only when next asked for.
    this.cache = new NodeCache({ stdTTL: options.cacheSeconds ?? 120, checkperiod: 60, useClones: false });
  }

  /** Seals `plaintext` for `tenant` and `purpose`, making the tenant's data key on first use. */
  async seal(tenant: string, purpose: SealPurpose, plaintext: Buffer | string): Promise<Buffer> {
    // Read from the database, never the cache: a key forgotten and made anew elsewhere must not seal.
    const dataKey = await this.loadDataKey(tenant, true);
    const header = Buffer.concat([Buffer.from([VERSION]), dataKey!.fingerprint]);
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', dataKey!.key, iv);
    cipher.setAAD(Buffer.concat([header, sealedAad(tenant, purpose)]));
    const ciphertext = Buffer.concat([cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext), cipher.final()]);
    return Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]);
  }

  /** Opens what `seal` made for the same tenant and purpose; throws SealedValueError otherwise. */
  async open(tenant: string, purpose: SealPurpose, sealed: Buffer | Uint8Array): Promise<Buffer> {
    const value = bytes(sealed);
    if (value.length < HEADER + IV + TAG || value[0] !== VERSION) throw new SealedValueError('not a sealed value of a known version');
    const fingerprint = value.subarray(1, HEADER);
    let dataKey = this.cache.get<DataKey>(checkTenantId(tenant));
    if (!dataKey?.fingerprint.equals(fingerprint)) dataKey = await this.loadDataKey(tenant, false);
    if (!dataKey) throw new SealedValueError('the workspace has no data key (forgotten at uninstall)');
    if (!dataKey.fingerprint.equals(fingerprint)) throw new SealedValueError('sealed under a data key the workspace no longer has');
    try {
      const decipher = createDecipheriv('aes-256-gcm', dataKey.key, value.subarray(HEADER, HEADER + IV));
      decipher.setAAD(Buffer.concat([value.subarray(0, HEADER), sealedAad(tenant, purpose)]));
      decipher.setAuthTag(value.subarray(HEADER + IV, HEADER + IV + TAG));
      return Buffer.concat([decipher.update(value.subarray(HEADER + IV + TAG)), decipher.final()]);
    } catch {
      throw new SealedValueError('altered, or sealed for another workspace or purpose');
    }
  }

  /**
   * Re-wraps every data key not wrapped by the current key-encryption key; run at start and after a
   * rotation. Safe on several replicas at once. Throws UnknownKeyEncryptionKeyError, after re-wrapping
   * the others, when some are wrapped by a key the ring lacks.
   */
  async rewrapAll(): Promise<RewrapCounts> {
    const current = this.keyRing.current;
    // The registry is readable by every tenant; the second half sees rows where row-level security does not apply.
    const { rows } = await this.db.query<{ tenant_id: string }>(
      `SELECT tenant_id FROM workspaces UNION SELECT tenant_id FROM tenant_data_keys WHERE kek_id <> $1 ORDER BY tenant_id`,
      [current.id],
    );
    const counts: RewrapCounts = { rewrapped: 0, alreadyCurrent: 0 };
    const unknown = new Set<string>();
    for (const { tenant_id: tenant } of rows) {
      await inTenant(this.db, tenant, async (tx) => {
        const row = await readRow(tx, tenant, true);
        if (!row) return;
        if (row.kek_id === current.id) return void counts.alreadyCurrent++;
        const kek = this.keyRing.byId.get(row.kek_id);
        if (!kek) return void unknown.add(row.kek_id);
        const key = unwrap(tenant, kek.id, kek.key, bytes(row.wrapped_key));
        await tx.query(`UPDATE tenant_data_keys SET kek_id = $2, wrapped_key = $3, rewrapped_at = $4 WHERE tenant_id = $1 AND kek_id = $5`, [
          tenant,
          current.id,
          wrap(tenant, current.id, current.key, key),
          this.clock.now(),
          row.kek_id,
        ]);
        counts.rewrapped++;
      });
    }
    this.logger?.info({ kekId: current.id, ...counts, unknownKekIds: [...unknown] }, 'data keys re-wrapped with the current key-encryption key');
    if (unknown.size > 0) throw new UnknownKeyEncryptionKeyError([...unknown].sort());
    return counts;
  }

  /**
   * A secret of the tenant's own for `purpose` (HKDF-SHA-256 of its data key), as hex: what seals its
   * buttons' values and its workflow tokens, instead of a key derived from a bot token. It outlives a
   * rotation of the key-encryption key (the data key stays; only its wrapping changes).
   */
  async derive(tenant: string, purpose: DerivedPurpose): Promise<string> {
    const dataKey = this.cache.get<DataKey>(checkTenantId(tenant)) ?? (await this.loadDataKey(tenant, true));
    return Buffer.from(hkdfSync('sha256', dataKey!.key, Buffer.alloc(0), `fleet-treasury-bot ${purpose}`, 32)).toString('hex');
  }

  /** Deletes the tenant's data key, so that whatever was sealed with it can never be opened again. */
  async forget(tenant: string): Promise<void> {
    await inTenant(this.db, tenant, (tx) => tx.query('DELETE FROM tenant_data_keys WHERE tenant_id = $1', [tenant]));
    this.cache.del(tenant);
  }

  /** Drops the unwrapped data keys held in memory. */
  close(): void {
    this.cache.flushAll();
    this.cache.close();
  }

  private async loadDataKey(tenant: string, create: boolean): Promise<DataKey | undefined> {
    const row = await inTenant(this.db, tenant, async (tx) => {
      const found = await readRow(tx, tenant, false);
      if (found || !create) return found;
      const current = this.keyRing.current;
      // Two replicas sealing a first secret at once: one insert wins, and both read the winner.
      await tx.query(`INSERT INTO tenant_data_keys (tenant_id, kek_id, wrapped_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id) DO NOTHING`, [
        tenant,
        current.id,
        wrap(tenant, current.id, current.key, randomBytes(DATA_KEY)),
        this.clock.now(),
      ]);
      return readRow(tx, tenant, false);
    });
    if (!row) return undefined;
    const kek = this.keyRing.byId.get(row.kek_id);
    if (!kek) throw new UnknownKeyEncryptionKeyError([row.kek_id]);
    const key = unwrap(tenant, kek.id, kek.key, bytes(row.wrapped_key));
    const dataKey = { key, fingerprint: fingerprintOf(key) };
    this.cache.set(tenant, dataKey);
    return dataKey;
  }
}

interface DataKeyRow {
  kek_id: string;
  wrapped_key: Buffer | Uint8Array;
}

async function readRow(tx: Queryable, tenant: string, forUpdate: boolean): Promise<DataKeyRow | undefined> {
  const { rows } = await tx.query<DataKeyRow>(`SELECT kek_id, wrapped_key FROM tenant_data_keys WHERE tenant_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
    tenant,
  ]);
  return rows[0];
}

function sealedAad(tenant: string, purpose: SealPurpose): Buffer {
  return Buffer.from(JSON.stringify(['fleet-treasury-bot sealed value', tenant, purpose]), 'utf8');
}

function wrappedAad(tenant: string, kekId: string): Buffer {
  return Buffer.from(JSON.stringify(['fleet-treasury-bot data key', tenant, kekId]), 'utf8');
}

/** Tells data keys apart in a sealed value, without saying anything of the key. */
function fingerprintOf(key: Buffer): Buffer {
  return createHmac('sha256', key).update('fleet-treasury-bot data key fingerprint').digest().subarray(0, FINGERPRINT);
}

function wrap(tenant: string, kekId: string, kek: Buffer, dataKey: Buffer): Buffer {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', kek, iv);
  cipher.setAAD(wrappedAad(tenant, kekId));
  const ciphertext = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
}

function unwrap(tenant: string, kekId: string, kek: Buffer, wrapped: Buffer): Buffer {
  try {
    if (wrapped[0] !== VERSION || wrapped.length !== 1 + IV + TAG + DATA_KEY) throw new Error('format');
    const decipher = createDecipheriv('aes-256-gcm', kek, wrapped.subarray(1, 1 + IV));
    decipher.setAAD(wrappedAad(tenant, kekId));
    decipher.setAuthTag(wrapped.subarray(1 + IV, 1 + IV + TAG));
    return Buffer.concat([decipher.update(wrapped.subarray(1 + IV + TAG)), decipher.final()]);
  } catch {
    throw new Error(
      `the data key of workspace ${tenant} does not unwrap with key-encryption key "${kekId}": the key under that id changed, or the row was altered`,
    );
  }
}
