/** The demo's own settings, read from the environment: DEMO_PORT and LOG_LEVEL; everything else is generated. */

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export function demoSettings(env: Record<string, string | undefined>): { port: number; logLevel: string } {
  const rawPort = env.DEMO_PORT?.trim() || '3000';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) throw new Error('DEMO_PORT must be a port number from 0 to 65535.');
  const logLevel = env.LOG_LEVEL?.trim() || 'warn';
  if (!LOG_LEVELS.has(logLevel)) throw new Error(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}.`);
  return { port, logLevel };
}
