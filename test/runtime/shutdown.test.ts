import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/logger.js';
import { Shutdown } from '../../src/runtime/shutdown.js';

describe('Shutdown', () => {
  const logger = createLogger({ level: 'silent' });

  it('stops the parts in the declared order, whatever order they were added in, and skips the missing', async () => {
    const stopped: string[] = [];
    const shutdown = new Shutdown(['slack', 'feed', 'fleet', 'database', 'sandbox'], logger);
    for (const step of ['database', 'fleet', 'slack', 'feed'] as const) shutdown.add(step, () => stopped.push(step));
    await shutdown.run();
    expect(stopped).toEqual(['slack', 'feed', 'fleet', 'database']);
  });

  it('still stops the rest when one part fails, and stops each part once', async () => {
    const stopped: string[] = [];
    const shutdown = new Shutdown(['slack', 'database'], logger);
    shutdown.add('slack', async () => {
      throw new Error('socket already closed');
    });
    shutdown.add('database', () => stopped.push('database'));
    await shutdown.run();
    await shutdown.run();
    expect(stopped).toEqual(['database']);
  });
});
