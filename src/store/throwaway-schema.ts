/**
 * A hosted deployment's database made for one run and dropped after it (the hosted demo, the tests):
 * a new schema on a Postgres whose URL may create schemas and roles, owned by that URL's role, and a
 * new LOGIN role that row-level security confines (NOSUPERUSER NOBYPASSRLS) for the app to connect as.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ThrowawaySchema {
  /** The schema's name and the app role's, each made for this run. */
  schema: string;
  role: string;
  /** The app's connections: the confined role, the new schema first on its search_path. */
  appUrl: string;
  /** The owner's: the given URL's role on the same schema (DATABASE_OWNER_URL), which runs the migrations. */
  ownerUrl: string;
  /** Drops the schema with all in it, then the role. */
  drop(): Promise<void>;
}

export async function createThrowawaySchema(adminUrl: string): Promise<ThrowawaySchema> {
  const suffix = randomBytes(5).toString('hex');
  const schema = `t_${suffix}`;
  const appRole = `fleet_app_${suffix}`;
  // A password too, for a Postgres that asks for one (hex: nothing to quote).
  const password = randomBytes(16).toString('hex');
  await asAdmin(adminUrl, `CREATE SCHEMA ${schema}; CREATE ROLE ${appRole} LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '${password}'`);
  const ownerUrl = new URL(adminUrl);
  ownerUrl.searchParams.set('options', `-c search_path=${schema}`);
  const appUrl = new URL(ownerUrl);
  appUrl.username = appRole;
  appUrl.password = password;
  let dropping: Promise<void> | undefined;
  return {
    schema,
    role: appRole,
    appUrl: appUrl.toString(),
    ownerUrl: ownerUrl.toString(),
    drop: () => (dropping ??= asAdmin(adminUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP OWNED BY ${appRole}; DROP ROLE ${appRole}`)),
  };
}

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
