/**
 * Each person's chosen language in the store, and the in-memory cache every look-up goes through
 * (`CachedLanguageChoices`), so that a warm answer reads no database for it. Storing a choice
 * notifies every replica (`NOTIFY language_choices`, in the write's transaction); each drops that
 * person's entry on the notice (see docs/performance.md, "Language choices").
 */
import NodeCache from 'node-cache';
import type { Db } from '../store/db.js';
import { notify } from '../store/notices.js';
import { isLocale, type Locale } from './locale.js';

export interface LanguageChoices {
  /** The language the person chose, or undefined when they chose none (or went back to `auto`). */
  get(userId: string): Promise<Locale | undefined>;
  /** Stores the choice; `undefined` clears it (`auto`). */
  set(userId: string, locale: Locale | undefined, now: Date): Promise<void>;
}

/** The channel on which a stored choice is announced; the payload is the person's user id (and the tenant, which `Db.listen` strips). */
export const LANGUAGE_CHOICES_CHANNEL = 'language_choices';

/** The choices as stored: one primary-key read per look-up; storing one notifies every listener. */
export function storedLanguageChoices(db: Db): LanguageChoices {
  return {
    async get(userId) {
      const { rows } = await db.query<{ locale: string }>('SELECT locale FROM language_choices WHERE user_id = $1', [userId]);
      const locale = rows[0]?.locale;
      return locale !== undefined && isLocale(locale) ? locale : undefined;
    },
    async set(userId, locale, now) {
      await db.transaction(async (tx) => {
        if (locale === undefined) {
          await tx.query('DELETE FROM language_choices WHERE user_id = $1', [userId]);
        } else {
          await tx.query(
            `INSERT INTO language_choices (user_id, locale, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (tenant_id, user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`,
            [userId, locale, now.toISOString()],
          );
        }
        // Delivered at commit only, so no replica re-reads the choice before it is there.
        await notify(tx, LANGUAGE_CHOICES_CHANNEL, userId);
      });
    },
  };
}

export interface CachedLanguageChoicesOptions {
  /** How long an entry is kept without a notice; default 10 minutes (a bound should a notice be lost). */
  ttlSeconds?: number;
  /** At most this many people cached; beyond, look-ups read the store. Default 10,000. */
  maxPeople?: number;
}

// "No choice" is cached too, as an empty string, so that most people (who chose none) read no store.
const NO_CHOICE = '';

/**
 * The stored choices behind a bounded in-memory cache, kept true by the store's notices: the
 * replica that stores a choice updates its own entry at once, and every replica drops a person's
 * entry on the notice of their change (within a second), or all entries when notices may have been
 * missed. Call `start()` before use and `close()` at shutdown.
 */
export class CachedLanguageChoices implements LanguageChoices {
  private readonly stored: LanguageChoices;
  private readonly cache: NodeCache;
  // Bumped on every invalidation: a read that began before one must not cache what it read.
  private generation = 0;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    options: CachedLanguageChoicesOptions = {},
  ) {
    this.stored = storedLanguageChoices(db);
    const ttl = options.ttlSeconds ?? 600;
    this.cache = new NodeCache({
      stdTTL: ttl,
      checkperiod: Math.max(1, Math.min(60, Math.floor(ttl / 4))),
      useClones: false,
      maxKeys: options.maxPeople ?? 10_000,
    });
  }

  /** Listens for changes made by any replica; until it resolves, nothing is cached. */
  async start(): Promise<void> {
    this.unlisten ??= await this.db.listen(LANGUAGE_CHOICES_CHANNEL, {
      notice: (userId) => this.forget(userId),
      reset: () => this.forgetAll(),
    });
  }

  async get(userId: string): Promise<Locale | undefined> {
    const cached = this.cache.get<string>(userId);
    if (cached !== undefined) return cached === NO_CHOICE ? undefined : (cached as Locale);
    const generation = this.generation;
    const locale = await this.stored.get(userId);
    if (generation === this.generation) this.remember(userId, locale);
    return locale;
  }

  async set(userId: string, locale: Locale | undefined, now: Date): Promise<void> {
    this.forget(userId);
    await this.stored.set(userId, locale, now);
    this.forget(userId);
    this.remember(userId, locale);
  }

  async close(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    this.cache.close();
    await unlisten?.();
  }

  private remember(userId: string, locale: Locale | undefined): void {
    if (!this.unlisten) return;
    try {
      this.cache.set(userId, locale ?? NO_CHOICE);
    } catch {
      // Full (ECACHEFULL): this person's look-ups read the store until entries expire.
    }
  }

  private forget(userId: string): void {
    this.generation += 1;
    this.cache.del(userId);
  }

  private forgetAll(): void {
    this.generation += 1;
    this.cache.flushAll();
  }
}
