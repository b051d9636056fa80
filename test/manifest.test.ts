import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FRONT_DOOR_PATHS } from '../src/hosting/front-door.js';
import { COMMAND } from '../src/slack/ids.js';
import { BOT_SCOPES } from '../src/slack/scopes.js';

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

  it('declares the Workflow Builder step request_payout with its inputs, outputs and remote runtime', async () => {
    const lines = await manifestLines();
    const text = lines.join('\n');
    expect(lines).toContain('functions:');
    expect(text).toMatch(/functions:\n {2}request_payout:\n {4}title: Request a payout/);
    // Each parameter: its name at six spaces, then its keys at eight, until the next name.
    const parameters = (section: string) => {
      const start = lines.indexOf(`    ${section}:`);
      const found = new Map<string, { type: string; required: boolean }>();
      let current: string | undefined;
      for (const line of lines.slice(start + 1)) {
        if (!line.startsWith('      ')) break;
        const name = /^ {6}(\w+):$/.exec(line)?.[1];
        if (name) {
          current = name;
          found.set(name, { type: '', required: false });
        } else if (current) {
          const type = /^ {8}type: (.+)$/.exec(line)?.[1];
          if (type) found.get(current)!.type = type;
          if (line.trim() === 'is_required: true') found.get(current)!.required = true;
        }
      }
      return found;
    };
    const inputs = parameters('input_parameters');
    expect([...inputs.keys()]).toEqual(['requester', 'kind', 'number', 'provider', 'country', 'name', 'amount', 'currency', 'reference', 'note', 'started_by']);
    expect(inputs.get('requester')?.type).toBe('slack#/types/user_id');
    expect(
      [...inputs]
        .filter(([, input]) => input.required)
        .map(([name]) => name)
        .sort(),
    ).toEqual(['amount', 'country', 'currency', 'kind', 'name', 'requester']);
    expect([...parameters('output_parameters').keys()]).toEqual(['status', 'transaction_id', 'payout_request_id']);
    expect(lines).toContain('  function_runtime: remote');
    expect(lines).toContain('  org_deploy_enabled: true');
    expect(text).toMatch(/bot_events:\n\s+- app_home_opened\n\s+- function_executed/);
  });

  it('asks for exactly the bot scopes the app uses', async () => {
    const lines = await manifestLines();
    const start = lines.indexOf('    bot:');
    // The list ends at the first line that is not one of its items (event subscriptions follow later).
    const after = lines.slice(start + 1);
    const end = after.findIndex((line) => !line.startsWith('      - '));
    const scopes = after.slice(0, end === -1 ? after.length : end).map((line) => line.trim().slice(2));
    expect(scopes.sort()).toEqual(['chat:write', 'commands', 'files:read', 'files:write', 'im:write', 'usergroups:read', 'users:read']);
    // Hosted mode's "Add to Slack" link asks for the list the app keeps in code: the two must agree.
    expect([...BOT_SCOPES].sort()).toEqual(scopes);
  });

  it("subscribes to the app's removal from a workspace and declares hosted mode's OAuth redirect", async () => {
    const lines = await manifestLines();
    const text = lines.join('\n');
    expect(text).toMatch(/bot_events:\n\s+- app_home_opened\n\s+- function_executed\n\s+- app_uninstalled\n\s+- tokens_revoked\n/);
    expect(text).toMatch(new RegExp(`oauth_config:\\n {2}redirect_urls:\\n {4}- https://YOUR-HOST${FRONT_DOOR_PATHS.redirect}\\n {2}scopes:`));
  });
});
