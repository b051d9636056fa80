/** What a schema migration is; each `NNN_name.ts` exports one, and `index.ts` lists them in order. */
export interface Migration {
  /** Applied in ascending order and recorded in `schema_migrations`; never renumber a shipped one. */
  id: number;
  name: string;
  /** One or more statements; runs in its own transaction, so it either fully applies or not at all. */
  sql: string;
}
