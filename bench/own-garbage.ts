/**
 * A full garbage collection of the bench's own process, run before each measured burst. The bench's
 * process holds the load generator, the local Slack workspaces and the sandbox; a major collection
 * of that heap (70 ms was seen) landing inside a burst delays every command of the burst, whichever
 * app it measures. Collected between bursts, it lands there less often. Only this process: the apps
 * measured collect their own garbage as they would in production.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

export function collectOwnGarbage(): void {
  if (!gc) {
    // `gc` exists in contexts created once the flag is set, without starting Node with --expose-gc.
    v8.setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
