import { defineConfig } from 'vitest/config';

/**
 * The e2e flows run a second time with Slack's round trips (the local workspace's latency setting,
 * 150 ms median, 600 ms p99): approve and reject, bulk, schedule, the transactions Filter, the payout
 * form, edit and resubmit.
 */
export const FLOWS_UNDER_LATENCY = [
  'test/e2e/payouts/payouts-flow.test.ts',
  'test/e2e/payouts/payouts-batch-approval.test.ts',
  'test/e2e/payouts/payouts-scheduled.test.ts',
  'test/e2e/payouts/payouts-resubmit.test.ts',
  'test/e2e/transactions-search.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'] } },
      { extends: true, test: { name: 'flows-under-latency', include: FLOWS_UNDER_LATENCY, env: { LOCAL_SLACK_LATENCY: 'real' } } },
    ],
  },
});
