import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { COMMAND } from '../src/slack/ids.js';

// A reading of the few manifest keys the app depends on; the file's comments say what to change for HTTP mode.
async function manifestLines(): Promise<string[]> {
  const text = await readFile(new URL('../manifest.yml', import.meta.url), 'utf8');
  return text.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

describe('manifest.yml', () => {
  it('declares the command the app listens to, interactivity and Socket Mode', async () => {
    const lines = await manifestLines();
    expect(lines).toContain(`    - command: ${COMMAND}`);
    expect(lines.join('\n')).toMatch(/interactivity:\n\s+is_enabled: true/);
    expect(lines).toContain('  socket_mode_enabled: true');
    const name = lines.find((line) => line.startsWith('  name: '))?.slice('  name: '.length) ?? '';
    expect(name.length).toBeGreaterThan(0);
    expect(name.length).toBeLessThanOrEqual(35);
  });

  it('turns on the Home tab and subscribes to app_home_opened', async () => {
    const lines = (await manifestLines()).join('\n');
    expect(lines).toMatch(/app_home:\n\s+home_tab_enabled: true/);
    expect(lines).toMatch(/event_subscriptions:\n\s+bot_events:\n\s+- app_home_opened/);
  });

  it('asks for exactly the bot scopes the app uses', async () => {
    const lines = await manifestLines();
    const start = lines.indexOf('    bot:');
    // The list ends at the first line that is not one of its items (event subscriptions follow later).
    const after = lines.slice(start + 1);
    const end = after.findIndex((line) => !line.startsWith('      - '));
    const scopes = after.slice(0, end === -1 ? after.length : end).map((line) => line.trim().slice(2));
    expect(scopes.sort()).toEqual(['chat:write', 'commands', 'files:read', 'files:write', 'im:write', 'usergroups:read', 'users:read']);
  });
});
