import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedLanguageChoices } from '../../src/i18n/language-choices.js';
import type { Db } from '../../src/store/index.js';
import { testDatabases } from '../support/databases.js';

describe.each(testDatabases())('language choices on $name', ({ open }) => {
  let db: Db;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close(); // db is unset when open() failed; let that failure be the one reported
  });

  it('has no choice for a person who never made one', async () => {
    expect(await storedLanguageChoices(db).get('U0NOBODY')).toBeUndefined();
  });

  it('keeps a choice, replaces it with a later one, and forgets it on auto', async () => {
    const choices = storedLanguageChoices(db);
    await choices.set('U0FABRICE', 'fr', new Date('2026-11-23T10:00:00Z'));
    expect(await choices.get('U0FABRICE')).toBe('fr');
    await choices.set('U0FABRICE', 'en', new Date('2026-11-23T11:00:00Z'));
    expect(await choices.get('U0FABRICE')).toBe('en');
    const { rows } = await db.query<{ updated_at: Date }>('SELECT updated_at FROM language_choices WHERE user_id = $1', ['U0FABRICE']);
    expect(rows.map((row) => new Date(row.updated_at).toISOString())).toEqual(['2026-11-23T11:00:00.000Z']);
    await choices.set('U0FABRICE', undefined, new Date('2026-11-23T12:00:00Z'));
    expect(await choices.get('U0FABRICE')).toBeUndefined();
  });

  it('is seen at once by another reader of the same database, as another replica would', async () => {
    await storedLanguageChoices(db).set('U0RITA', 'fr', new Date('2026-11-23T10:00:00Z'));
    expect(await storedLanguageChoices(db).get('U0RITA')).toBe('fr');
  });

  it('refuses a language the app does not speak', async () => {
    await expect(db.query("INSERT INTO language_choices (user_id, locale, updated_at) VALUES ('U0X', 'pt', now())")).rejects.toThrow();
  });
});
