import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWebApi, type WebApiContext } from '../../packages/local-slack/src/workspace/web-api.js';
import { SRC, sourceFiles } from '../support/source-files.js';

/** Every Web API method the product calls through a WebClient (`client.chat.postMessage(…)` → `chat.postMessage`). */
function methodsCalled(): Set<string> {
  const methods = new Set<string>();
  for (const file of sourceFiles()) {
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const match of text.matchAll(/\bclient\.([a-z]+(?:\.[a-zA-Z]+)+)\(/g)) methods.add(match[1]!);
  }
  return methods;
}

describe('the local workspace', () => {
  it('answers every Slack Web API method the app calls, so that no test meets unknown_method', () => {
    const answered = new Set(Object.keys(createWebApi({ state: { identity: {} }, uploadUrl: () => '', report: () => undefined } as unknown as WebApiContext)));
    const called = methodsCalled();
    // The scan saw the calls it should (a broken pattern would pass with none).
    expect(called).toContain('chat.postMessage');
    expect(called).toContain('functions.completeSuccess');
    expect([...called].filter((method) => !answered.has(method))).toEqual([]);
  });
});
