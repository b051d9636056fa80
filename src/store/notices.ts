/**
 * NOTIFY across tenants on one listening connection: the sender's tenant travels at the head of the
 * payload, and each tenant's listeners get only their tenant's payloads, without that head.
 */
import type { NoticeHandlers, Queryable } from './db.js';

/**
 * Sends `payload` on `channel` for the tenant of `q`'s connection (`app.tenant`); delivered at
 * commit when `q` is a transaction. Listeners get it through `Db.listen` on the same tenant's Db.
 */
export async function notify(q: Queryable, channel: string, payload: string): Promise<void> {
  await q.query("SELECT pg_notify($1, current_setting('app.tenant') || ' ' || $2)", [channel, payload]);
}

/** `handlers` behind a filter that passes on `tenant`'s payloads alone, stripped of the tenant. */
export function tenantNotices(tenant: string, handlers: NoticeHandlers): NoticeHandlers {
  const head = `${tenant} `;
  return {
    notice(payload) {
      if (payload.startsWith(head)) handlers.notice(payload.slice(head.length));
    },
    reset: () => handlers.reset?.(),
  };
}
