/** How a payout request came in when it was not the form: 'workflow' (a Workflow Builder step, confirmed by the requester). */
import type { Migration } from './migration.js';

export const requestedThrough: Migration = {
  id: 29,
  name: 'requested_through',
  sql: `
    -- NULL: asked for by the requester in the app (the form, a bulk row, a schedule's release).
    ALTER TABLE payout_requests ADD COLUMN requested_through text CHECK (requested_through IN ('workflow'));
  `,
};
