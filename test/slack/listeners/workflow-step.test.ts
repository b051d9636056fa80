import { describe, expect, it, vi } from 'vitest';
import { registerWorkflowStepListeners } from '../../../src/slack/listeners/workflow-step.js';
import { TokenBox } from '../../../src/slack/trust/token-box.js';
import { fakeClient, fakeContext, FakeRouter } from '../../support/fake-router.js';

describe('the Workflow Builder step', () => {
  it('registers nothing when the step is not wired', () => {
    const ctx = fakeContext();
    const fake = new FakeRouter(ctx);
    registerWorkflowStepListeners(fake.router, ctx, fakeClient().client);
    expect(fake.registered()).toEqual([]);
  });

  it('starts no step for an event without a function token, and sends nothing', async () => {
    const start = vi.fn();
    const ctx = fakeContext({ workflowSteps: { start } as never, tokens: new TokenBox('a-test-secret-long-enough-for-a-box') });
    const fake = new FakeRouter(ctx);
    const app = fakeClient();
    registerWorkflowStepListeners(fake.router, ctx, app.client);
    const callbackId =
      fake
        .registered()
        .find((key) => key.startsWith('function:'))
        ?.slice('function:'.length) ?? '';
    const handled = await fake.functionExecuted(callbackId, { function_execution_id: 'Fx1', workflow_execution_id: 'Wx1', inputs: {} });
    expect(handled.calls).toEqual([]);
    expect(start).not.toHaveBeenCalled();
    expect(app.calls).toEqual([]);
  });
});
