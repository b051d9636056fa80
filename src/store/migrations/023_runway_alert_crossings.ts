/**
 * The low-balance alerts' crossing state (003) also holds the runway alert's, one row per kind and
 * currency: `kind` is `balance` for BALANCE_ALERT_BELOW (every row so far) and `runway` for
 * RUNWAY_ALERT_DAYS, whose `threshold_minor` holds the line in days.
 */
import type { Migration } from './migration.js';

export const runwayAlertCrossings: Migration = {
  id: 23,
  name: 'runway_alert_crossings',
  sql: `
    ALTER TABLE feed_balance_alerts ADD COLUMN kind text NOT NULL DEFAULT 'balance';
    ALTER TABLE feed_balance_alerts DROP CONSTRAINT feed_balance_alerts_pkey;
    ALTER TABLE feed_balance_alerts ADD PRIMARY KEY (kind, currency);
  `,
};
