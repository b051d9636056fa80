/**
 * The team's saved import profiles (table `records_import_profiles`): one per name, whatever its
 * case, checked by `IMPORT_PROFILE` when written and again when read, so a row changed by hand
 * that no longer reads as a profile is never used. Every write goes through `save`.
 */
import type { Clock } from '../core/clock.js';
import type { Queryable } from '../store/db.js';
import { IMPORT_PROFILE, type ImportProfile } from './profile.js';

/** A saved profile and who last changed it. */
export interface SavedProfile {
  profile: ImportProfile;
  createdBy: string;
  updatedBy: string;
  updatedAt: Date;
}

export type ProfileSaving = { ok: true; saved: SavedProfile; replaced: boolean } | { ok: false; issues: string[] };

/** The most profiles listed (newest first): the upload form's select holds them all. */
export const LISTED_PROFILES = 50;

interface ProfileRow {
  profile: unknown;
  created_by: string;
  updated_by: string;
  updated_at: Date | string;
  replaced?: boolean;
}

const COLUMNS = 'profile, created_by, updated_by, updated_at';

function toSaved(row: ProfileRow): SavedProfile | undefined {
  const json = typeof row.profile === 'string' ? safeJson(row.profile) : row.profile;
  const checked = IMPORT_PROFILE.safeParse(json);
  if (!checked.success) return undefined;
  return { profile: checked.data, createdBy: row.created_by, updatedBy: row.updated_by, updatedAt: new Date(row.updated_at) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export class ImportProfiles {
  constructor(
    private readonly db: Queryable,
    private readonly clock: Clock,
  ) {}

  /** Saves `profile` under its name, replacing the one of that name in any case; the same save twice leaves one row. */
  async save(profile: unknown, userId: string): Promise<ProfileSaving> {
    const checked = IMPORT_PROFILE.safeParse(profile);
    if (!checked.success) return { ok: false, issues: checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
    const { name } = checked.data;
    const now = this.clock.now();
    const { rows } = await this.db.query<ProfileRow>(
      `INSERT INTO records_import_profiles (name_key, name, profile, created_by, updated_by, created_at, updated_at)
       VALUES (lower($1), $1, $2::jsonb, $3, $3, $4::timestamptz, $4::timestamptz)
       ON CONFLICT (tenant_id, name_key) DO UPDATE SET name = EXCLUDED.name, profile = EXCLUDED.profile, updated_by = EXCLUDED.updated_by,
         updated_at = EXCLUDED.updated_at
       RETURNING ${COLUMNS}, (xmax::text <> '0') AS replaced`,
      [name, JSON.stringify(checked.data), userId, now.toISOString()],
    );
    const saved = rows[0] && toSaved(rows[0]);
    if (!saved) throw new Error('a saved import profile did not read back');
    return { ok: true, saved, replaced: rows[0]?.replaced === true };
  }

  /** The saved profiles, most recently changed first, at most `limit`; rows that no longer read as a profile are skipped. */
  async list(limit = LISTED_PROFILES): Promise<SavedProfile[]> {
    const { rows } = await this.db.query<ProfileRow>(
      `SELECT ${COLUMNS} FROM records_import_profiles ORDER BY updated_at DESC, name_key LIMIT ${Math.max(1, Math.floor(limit))}`,
    );
    return rows.map(toSaved).filter((saved): saved is SavedProfile => saved !== undefined);
  }

  /** The profile saved under `name`, compared without case. */
  async byName(name: string): Promise<SavedProfile | undefined> {
    const { rows } = await this.db.query<ProfileRow>(`SELECT ${COLUMNS} FROM records_import_profiles WHERE name_key = lower($1)`, [name.trim()]);
    return rows[0] && toSaved(rows[0]);
  }
}
