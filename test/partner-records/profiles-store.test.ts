import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultProfile, IMPORT_PROFILE, type ImportProfile } from '../../src/partner-records/index.js';
import { ImportProfiles } from '../../src/partner-records/profiles-store.js';
import type { Db } from '../../src/store/db.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/payout-doubles.js';

const named = (name: string, fields: Partial<ImportProfile> = {}): ImportProfile => IMPORT_PROFILE.parse({ ...defaultProfile('UTC'), name, ...fields });

describe.each(testDatabases())('the saved import profiles on $name', ({ open }) => {
  let db: Db;
  let profiles: ImportProfiles;
  const clock = new ManualClock(new Date('2026-11-20T10:00:00Z'));
  beforeAll(async () => {
    db = await open();
    profiles = new ImportProfiles(db, clock);
  });
  afterAll(async () => {
    await db?.close();
  });
  const rows = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM records_import_profiles')).rows[0]?.n;

  it('saves a profile twice as one row, and replaces it by its name whatever its case, keeping who made it', async () => {
    const first = await profiles.save(named('TMB'), 'U0ALICE');
    const again = await profiles.save(named('TMB'), 'U0ALICE');
    expect(first).toMatchObject({ ok: true, replaced: false });
    expect(again).toMatchObject({ ok: true, replaced: true });
    expect(await rows()).toBe(1);
    clock.advance(60_000);
    await profiles.save(named('tmb', { delimiter: ';' }), 'U0BOB');
    expect(await rows()).toBe(1);
    const saved = await profiles.byName('Tmb');
    expect(saved).toMatchObject({ createdBy: 'U0ALICE', updatedBy: 'U0BOB', profile: { name: 'tmb', delimiter: ';' } });
    expect(saved?.updatedAt.toISOString()).toBe('2026-11-20T10:01:00.000Z');
  });

  it('lists the profiles most recently changed first, within the bound', async () => {
    clock.advance(60_000);
    await profiles.save(named('Equity'), 'U0ALICE');
    clock.advance(60_000);
    await profiles.save(named('Rawbank'), 'U0ALICE');
    expect((await profiles.list()).map((saved) => saved.profile.name)).toEqual(['Rawbank', 'Equity', 'tmb']);
    expect((await profiles.list(2)).map((saved) => saved.profile.name)).toEqual(['Rawbank', 'Equity']);
    expect(await profiles.byName('nowhere')).toBeUndefined();
  });

  it('refuses a profile the schema refuses, and skips a stored row that no longer reads as one', async () => {
    const before = await rows();
    const refused = await profiles.save({ ...named('Broken'), timeZone: 'Mars/Olympus' }, 'U0ALICE');
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.issues.join()).toContain('timeZone');
    expect(await profiles.save({ name: 'Half' }, 'U0ALICE')).toMatchObject({ ok: false });
    expect(await rows()).toBe(before);
    await db.query(
      `INSERT INTO records_import_profiles (name_key, name, profile, created_by, updated_by, created_at, updated_at)
       VALUES ('bad', 'bad', '{"name":"bad","delimiter":"|"}'::jsonb, 'U0X', 'U0X', now(), now())`,
    );
    expect(await profiles.byName('bad')).toBeUndefined();
    expect((await profiles.list()).map((saved) => saved.profile.name)).not.toContain('bad');
  });
});
