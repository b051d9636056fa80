import { describe, expect, it, vi } from 'vitest';
import type { App } from '@slack/bolt';
import { registerListeners } from '../../../src/slack/listeners/index.js';
import { fakeClient, fakeContext } from '../../support/fake-router.js';

describe('registering every listener', () => {
  it("puts the reader's middleware first and one router after it, with no two listeners answering the same request", () => {
    const use = vi.fn();
    const app = { use, client: fakeClient().client } as unknown as App;
    expect(() => registerListeners(app, fakeContext({ home: { opened: vi.fn(), refresh: vi.fn() } }))).not.toThrow();
    expect(use).toHaveBeenCalledTimes(2);
  });
});
