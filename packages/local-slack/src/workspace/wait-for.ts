/** Waiting for the workspace to reach a state: a probe checked on every change (and every 25 ms), with a timeout that says what it last saw. */
import type { EventEmitter } from 'node:events';
import type { ApiCall, WorkspaceChange } from './types.js';

export function waitForChange<T>(
  emitter: EventEmitter<{ change: [WorkspaceChange] }>,
  probe: () => T | undefined | false | null,
  options: { timeoutMs?: number; message?: string },
  recentCalls: () => ReadonlyArray<ApiCall>,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise<T>((resolve, reject) => {
    let lastError: unknown;
    const check = (): void => {
      try {
        const value = probe();
        if (value instanceof Promise) {
          // A promise is always "a value": the wait would end at once, having checked nothing.
          stop();
          reject(new Error('waitFor needs a synchronous probe; it got a promise'));
          return;
        }
        if (value !== undefined && value !== null && value !== false) {
          stop();
          resolve(value);
        }
      } catch (error) {
        lastError = error;
      }
    };
    const poll = setInterval(check, 25);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(describeTimeout(timeoutMs, options.message, lastError, recentCalls())));
    }, timeoutMs);
    const stop = () => {
      emitter.off('change', check);
      clearInterval(poll);
      clearTimeout(timer);
    };
    emitter.on('change', check);
    check();
  });
}

function describeTimeout(timeoutMs: number, message: string | undefined, lastError: unknown, calls: ReadonlyArray<ApiCall>): string {
  const recent = calls.map((call) => `${call.method}${call.error ? ` (${call.error})` : ''}`).join(', ');
  return [
    `waitFor gave up after ${timeoutMs} ms: ${message ?? 'the probe never returned a value'}`,
    lastError instanceof Error ? `last probe error: ${lastError.message}` : undefined,
    `last Web API calls: ${recent || 'none'}`,
  ]
    .filter(Boolean)
    .join('\n');
}
