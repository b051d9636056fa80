import { describe, expect, it, vi } from 'vitest';
import { registerHomeListeners } from '../../../src/slack/listeners/home.js';
import { fakeContext, FakeRouter, VIEWER } from '../../support/fake-router.js';

function setUp() {
  const home = { opened: vi.fn(async () => undefined), refresh: vi.fn(async () => undefined) };
  const ctx = fakeContext({ home: home });
  const fake = new FakeRouter(ctx);
  registerHomeListeners(fake.router, ctx);
  return { fake, home };
}

describe('the App Home listeners', () => {
  it('publishes the Home tab when opened, over the home the person sees', async () => {
    const { fake, home } = setUp();
    await fake.event('app_home_opened', { tab: 'home', user: VIEWER, view: { hash: 'shown-1' } });
    expect(home.opened).toHaveBeenCalledWith(VIEWER, 'shown-1');
    await fake.event('app_home_opened', { tab: 'messages', user: VIEWER });
    expect(home.opened).toHaveBeenCalledTimes(1);
  });

  it('acknowledges Refresh and publishes again for the person who pressed it', async () => {
    const { fake, home } = setUp();
    const handled = await fake.action('home_refresh', VIEWER);
    expect(handled.acks).toHaveLength(1);
    expect(home.refresh).toHaveBeenCalledWith(VIEWER);
  });

  it('registers nothing without a Home publisher', () => {
    const ctx = fakeContext();
    const fake = new FakeRouter(ctx);
    registerHomeListeners(fake.router, ctx);
    expect(fake.registered()).toEqual([]);
  });
});
