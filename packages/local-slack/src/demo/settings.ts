/**
 * The demo's own settings, read from the environment: DEMO_PORT, LOG_LEVEL and DEMO_TIMINGS (1: print
 * where the start's time went, for bench/demo-start.ts); everything else is generated.
 */

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export function demoSettings(env: Record<string, string | undefined>): { port: number; logLevel: string; timings: boolean } {
  const rawPort = env.DEMO_PORT?.trim() || '3000';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) throw new Error('DEMO_PORT must be a port number from 0 to 65535.');
  const logLevel = env.LOG_LEVEL?.trim() || 'warn';
  if (!LOG_LEVELS.has(logLevel)) throw new Error(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}.`);
  return { port, logLevel, timings: env.DEMO_TIMINGS?.trim() === '1' };
}
