import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The page's own module, as the browser loads it (plain JavaScript, without types). */
interface PageMrkdwn {
  emojify: (html: string) => string;
  mrkdwn: (text: string, names?: { users: Record<string, string>; channels: Record<string, string>; locale?: string }) => string;
}
const pageModule = path.join(root, 'packages/local-slack/src/workspace/page/mrkdwn.js');
const { emojify, mrkdwn } = (await import(pageModule)) as PageMrkdwn;

/** Every `:name:` in the app's texts and Slack surface (what people read). */
async function emojiTheAppUses(): Promise<string[]> {
  const folders = ['src/i18n/messages', 'src/slack/views', 'src/slack/publishers', 'src/slack/refusals', 'src/slack/listeners'];
  const names = new Set<string>();
  for (const folder of folders) {
    for (const file of await readdir(path.join(root, folder))) {
      if (!file.endsWith('.ts')) continue;
      for (const match of (await readFile(path.join(root, folder, file), 'utf8')).matchAll(/:([a-z][a-z0-9_+-]*):/g)) names.add(match[1]!);
    }
  }
  return [...names].sort();
}

describe("the local page's mrkdwn", () => {
  it('draws every emoji the app uses, as Slack does, rather than its code', async () => {
    const names = await emojiTheAppUses();
    expect(names.length).toBeGreaterThan(20);
    const missing = names.filter((name) => emojify(`:${name}:`) === `:${name}:`);
    expect(missing).toEqual([]);
  });

  it("writes a <!date> in the reader's language, as Slack's client does", () => {
    const seconds = Math.floor(Date.UTC(2026, 2, 4, 12, 0) / 1000);
    const token = `<!date^${seconds}^{date_long}|fallback>`;
    expect(mrkdwn(token, { users: {}, channels: {}, locale: 'fr-FR' })).toContain('mercredi 4 mars 2026');
    expect(mrkdwn(token, { users: {}, channels: {}, locale: 'en-US' })).toContain('Wednesday, March 4, 2026');
    const now = `<!date^${Math.floor(Date.now() / 1000)}^{date_short_pretty}|fallback>`;
    expect(mrkdwn(now, { users: {}, channels: {}, locale: 'fr-FR' })).toContain('Aujourd’hui');
    expect(mrkdwn(now, { users: {}, channels: {}, locale: 'en-GB' })).toContain('Today');
  });
});
