import { describe, expect, it, vi } from 'vitest';
import { languageSubcommand } from '../../../src/slack/listeners/language.js';
import { fakeContext, runSubcommand, seen, STRANGER } from '../../support/fake-router.js';

function setUp(choose = vi.fn(async () => undefined)) {
  const locales = {
    forPerson: async () => 'en' as const,
    explain: async () => ({ locale: 'en' as const, source: 'default' as const, slackLocale: undefined }),
    choose,
  };
  const ctx = fakeContext({ locales });
  return { ctx, choose };
}

describe('/fleet language', () => {
  it('stores the language chosen and answers in it', async () => {
    const { ctx, choose } = setUp();
    const { replies } = await runSubcommand(languageSubcommand(ctx), ctx, STRANGER, ['Français']);
    expect(choose).toHaveBeenCalledWith(STRANGER, 'fr');
    expect(seen(replies[0])).toMatch(/français/i);
  });

  it('quotes back a word it does not know and stores nothing', async () => {
    const { ctx, choose } = setUp();
    const { replies } = await runSubcommand(languageSubcommand(ctx), ctx, STRANGER, ['klingon']);
    expect(choose).not.toHaveBeenCalled();
    expect(seen(replies[0])).toContain('`klingon`');
  });

  it('says the choice could not be saved when the store fails', async () => {
    const { ctx } = setUp(vi.fn(async () => Promise.reject(new Error('db down'))));
    const { replies } = await runSubcommand(languageSubcommand(ctx), ctx, STRANGER, ['fr']);
    expect(replies).toHaveLength(1);
    expect(seen(replies[0])).not.toContain('db down');
  });
});
