/** The local Slack workspace: start it, act as people through it, and read what they would see. */
export { LocalSlack, startLocalSlack } from './local-slack.js';
export { checkMessage, checkView } from './block-kit-limits.js';
export { postSigned, signRequest } from './delivery.js';
export { DEFAULT_USERS } from './state.js';
export type * from './types.js';
export type { WorkflowRun } from './workflows.js';
export { METHOD_TIERS, type RateLimitOptions } from './rate-limits.js';
export { latencyDraws, latencySetting, REAL_LATENCY, type LatencyOptions } from './latency.js';
export { LocalSlackGrid, startLocalSlackGrid, type GridWorkspaceOptions, type LocalSlackGridOptions, type OAuthApp } from './grid.js';
export { UnknownSlashCommandError } from './local-slack.js';
