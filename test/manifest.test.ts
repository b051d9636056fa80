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

  it('asks for exactly the bot scopes the app uses', async () => {
    const lines = await manifestLines();
    const start = lines.indexOf('    bot:');
    const scopes = lines.slice(start + 1).filter((line) => line.startsWith('      - ')).map((line) => line.trim().slice(2));
    expect(scopes.sort()).toEqual(['chat:write', 'commands', 'files:read', 'files:write', 'im:write', 'usergroups:read', 'users:read']);
  });
});
