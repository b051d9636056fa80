/** `npm run demo` (`-- --hosted`: hosted-main.ts): starts the demo, prints where to open it, and stops everything cleanly on Ctrl-C. */
import { setFlagsFromString } from 'node:v8';
import { say, stopOnSignals } from './console.js';
import { openDemoDatabase } from './demo-database.js';
import { DEMO_PEOPLE } from './people.js';
import { createLogger } from './product-store.js';
import { demoSettings } from './settings.js';
import { markStart, startMarks } from './start-timings.js';

async function main(): Promise<void> {
  markStart('demo code loaded');
  const settings = demoSettings(process.env);
  // `npm run demo -- --hosted`: the app hosted for two partners, on Postgres (hosted-demo.ts).
  if (process.argv.slice(2).includes('--hosted')) {
    const { runHostedDemo } = await import('./hosted-main.js');
    return runHostedDemo(settings, process.env);
  }
  say('Starting the Fleet Treasury demo: sandbox Fleet API, embedded database, bot and local Slack workspace…');
  // PGlite's 9 MB of WebAssembly: each function checked when first compiled (most never are), not all
  // of them up front (about 40 ms of CPU). The demo's process only: the module is PGlite's own, trusted.
  setFlagsFromString('--wasm-lazy-validation');
  // The database first: reading its snapshot and starting PGlite go on while the bot's code loads.
  // (Its logger carries none of the secrets the demo generates later: the store never logs them.)
  const database = openDemoDatabase(createLogger({ level: settings.logLevel, pretty: true }).child({ component: 'store' }));
  database.catch(() => undefined); // awaited by startDemo, which reports its failure
  const { startDemo } = await import('./demo.js');
  markStart('bot code loaded');
  const demo = await startDemo({ port: settings.port, logLevel: settings.logLevel, database }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new Error(`port ${settings.port} is in use: run with DEMO_PORT=<another port>`, { cause: error });
    }
    throw error;
  });
  markStart('page open');
  const pageUrl = demo.url.replace('://127.0.0.1:', '://localhost:');
  say();
  say(`  Open ${pageUrl}`);
  say();
  for (const person of Object.values(DEMO_PEOPLE)) say(`  ${person.realName.padEnd(15)} ${person.role}`);
  say();
  say('  Type /fleet help in #treasury. Sandbox data, no real money. Ctrl-C stops.');
  if (settings.timings) process.stderr.write(`DEMO_TIMINGS ${JSON.stringify(startMarks())}\n`);

  stopOnSignals(demo);
}

main().catch((error: unknown) => {
  console.error('The demo failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
