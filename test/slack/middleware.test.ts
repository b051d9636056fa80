import type { Context } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../src/i18n/index.js';
import { readerMiddleware, readerSurfaceOf } from '../../src/slack/transport/middleware.js';

/** Runs the middleware on a request from `userId`, as Bolt would, and gives back the context the listener sees. */
async function throughMiddleware(locales: { forPerson(userId: string): Promise<Locale> }, userId: string | undefined): Promise<Context> {
  const context: Context = { isEnterpriseInstall: false, ...(userId ? { userId } : {}) };
  let nextCalled = false;
  const middleware = readerMiddleware({ surface: { sandbox: true, locale: 'en' }, locales });
  const args = {
    context,
    next: () => {
      nextCalled = true;
      return Promise.resolve();
    },
  };
  await (middleware as unknown as (input: typeof args) => Promise<void>)(args);
  expect(nextCalled).toBe(true);
  return context;
}

describe('the reader middleware', () => {
  it('asks nobody for the language before a listener needs it, then asks once however often the listener does', async () => {
    const asked: string[] = [];
    const locales = {
      forPerson: (userId: string) => {
        asked.push(userId);
        return Promise.resolve<Locale>('fr');
      },
    };
    const context = await throughMiddleware(locales, 'U0RITA');
    expect(asked).toEqual([]);
    const readerSurface = readerSurfaceOf(context, 'U0RITA');
    const [first, second] = await Promise.all([readerSurface(), readerSurface()]);
    expect(await readerSurface()).toEqual({ sandbox: true, locale: 'fr' });
    expect(first).toBe(second);
    expect(asked).toEqual(['U0RITA']);
  });

  it('gives a listener the reader only for the person who made the request', async () => {
    const context = await throughMiddleware({ forPerson: () => Promise.resolve<Locale>('en') }, 'U0RITA');
    expect(() => readerSurfaceOf(context, 'U0ABEL')).toThrow('readerMiddleware');
    const anonymous = await throughMiddleware({ forPerson: () => Promise.resolve<Locale>('en') }, undefined);
    expect(() => readerSurfaceOf(anonymous, 'U0RITA')).toThrow('readerMiddleware');
  });
});
