/**
 * Each person's chosen language in the store: read on every look-up (one primary-key read) so that
 * every replica agrees at once after `/fleet language`.
 */
import type { Queryable } from '../store/db.js';
import { isLocale, type Locale } from './locale.js';

export interface LanguageChoices {
  /** The language the person chose, or undefined when they chose none (or went back to `auto`). */
  get(userId: string): Promise<Locale | undefined>;
  /** Stores the choice; `undefined` clears it (`auto`). */
  set(userId: string, locale: Locale | undefined, now: Date): Promise<void>;
}

export function storedLanguageChoices(db: Queryable): LanguageChoices {
  return {
    async get(userId) {
      const { rows } = await db.query<{ locale: string }>('SELECT locale FROM language_choices WHERE user_id = $1', [userId]);
      const locale = rows[0]?.locale;
      return locale !== undefined && isLocale(locale) ? locale : undefined;
    },
    async set(userId, locale, now) {
      if (locale === undefined) {
        await db.query('DELETE FROM language_choices WHERE user_id = $1', [userId]);
        return;
      }
      await db.query(
        `INSERT INTO language_choices (user_id, locale, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET locale = excluded.locale, updated_at = excluded.updated_at`,
        [userId, locale, now.toISOString()],
      );
    },
  };
}
