/**
 * Tenants: each Slack workspace the app serves keeps its rows apart from every other's, under its
 * Slack team (or enterprise) id; a single-workspace deployment is the one tenant below.
 */

/** The tenant of a single-workspace deployment, the default, and of every row stored before tenants. */
export const SINGLE_WORKSPACE_TENANT = 'single-workspace';

/** Hosted mode's replicas, which say they are alive under this tenant of their own: no workspace's rows. */
export const REPLICAS_TENANT = 'hosting-replicas';

const SLACK_TEAM_OR_ENTERPRISE_ID = /^[TE][A-Z0-9]{2,}$/;

/** True for `single-workspace`, `hosting-replicas` or a Slack team or enterprise id (`T0123ABCD`, `E0123ABCD`). */
export function isTenantId(text: string): boolean {
  return text === SINGLE_WORKSPACE_TENANT || text === REPLICAS_TENANT || SLACK_TEAM_OR_ENTERPRISE_ID.test(text);
}

/** Throws unless `text` is a tenant id: the value ends up in every query's setting, so nothing else gets there. */
export function checkedTenant(text: string): string {
  if (!isTenantId(text)) throw new Error('A tenant is `single-workspace`, `hosting-replicas` or a Slack team or enterprise id');
  return text;
}
