/**
 * The two Postgres roles of a hosted deployment: the owner, which runs the migrations and owns the
 * tables, and the app's role, confined to reading and writing rows, so that row-level security
 * holds for it (an owner, a superuser or a BYPASSRLS role would see every tenant).
 */
import type { Queryable } from './db.js';

/**
 * Grants `appRole` what the app needs on the schema holding the app's tables (as the owner sees
 * them) and no more: rows of every table, its sequences, and only reading of schema_migrations.
 */
export async function grantAppRole(owner: Queryable, appRole: string): Promise<void> {
  const { rows } = await owner.query<{ schema: string }>(
    "SELECT relnamespace::regnamespace::text AS schema FROM pg_class WHERE oid = 'schema_migrations'::regclass",
  );
  const schema = rows[0]?.schema;
  if (schema === undefined) throw new Error('The owner connection sees no schema_migrations table');
  const role = quoteIdentifier(appRole);
  // regnamespace::text is already quoted where it needs to be.
  await owner.query(`
    GRANT USAGE ON SCHEMA ${schema} TO ${role};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role};
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role};
    REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON ${schema}.schema_migrations FROM ${role};
    GRANT SELECT ON ${schema}.schema_migrations TO ${role}`);
}

/** The role the connections of `db` log in as. */
export async function currentRole(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ role: string }>('SELECT current_user AS role');
  const role = rows[0]?.role;
  if (role === undefined) throw new Error('The database did not name its current role');
  return role;
}

/**
 * Why the role of `db` is not confined by row-level security, or undefined when it is: a superuser
 * or a BYPASSRLS role skips every policy, and a role that owns (or may act as the owner of) one of
 * the app's tables could turn its security off. Hosted mode refuses to start on such a role.
 */
export async function confinedRoleProblem(db: Queryable): Promise<string | undefined> {
  const { rows } = await db.query<{ role: string; superuser: boolean; bypass: boolean; owned: string[] | null }>(
    `SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolbypassrls AS bypass,
            (SELECT array_agg(c.relname::text ORDER BY c.relname)
               FROM pg_class c
              WHERE c.relkind IN ('r', 'p')
                AND c.relnamespace IN (SELECT n.oid FROM pg_namespace n WHERE n.nspname = ANY (current_schemas(false)))
                AND pg_has_role(current_user, c.relowner, 'MEMBER')) AS owned
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const row = rows[0];
  if (!row) return 'The database role the app connects as could not be read';
  if (row.superuser) return `The app's database role ${row.role} is a superuser, which row-level security does not confine`;
  if (row.bypass) return `The app's database role ${row.role} has BYPASSRLS, which skips row-level security`;
  const owned = row.owned ?? [];
  if (owned.length > 0) {
    return `The app's database role ${row.role} owns ${owned.length} of the app's tables (${owned.slice(0, 3).join(', ')}${owned.length > 3 ? ', …' : ''}): run migrations as another role (DATABASE_OWNER_URL)`;
  }
  return undefined;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
