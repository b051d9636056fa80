/** `npm run demo -- --hosted`: starts the hosted demo, prints what to do, and stops everything (its schema and role dropped) on Ctrl-C. */
import { DEFAULT_HOSTED_DATABASE_URL, HOSTED_ADMIN, startHostedDemo } from './hosted-demo.js';
import { say, stopOnSignals } from './console.js';

export async function runHostedDemo(settings: { port: number; logLevel: string }, env: Record<string, string | undefined>): Promise<void> {
  const databaseUrl = env.DATABASE_URL?.trim() || DEFAULT_HOSTED_DATABASE_URL;
  say('Starting the hosted Fleet Treasury demo: two partners’ workspaces, a sandbox Fleet account each, the app on Postgres…');
  const demo = await startHostedDemo({ databaseUrl, port: settings.port, logLevel: settings.logLevel }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      throw new Error(`port ${settings.port} is in use: run with DEMO_PORT=<another port>`, { cause: error });
    }
    throw error;
  });
  say();
  // 127.0.0.1 as PUBLIC_URL says: the install's cookie must come back with Slack's redirect to it.
  say(`  1. Open ${demo.installUrl}, click Add to Slack,`);
  say(`     pick a workspace and ${HOSTED_ADMIN.realName} (its admin), then Allow.`);
  say('  2. In that workspace’s page, as the admin, run /fleet connect and paste its partner’s key:');
  for (const partner of demo.partners) {
    say(`       ${partner.teamName.padEnd(15)} ${partner.fleetKey}   ${partner.pageUrl.replace('://127.0.0.1:', '://localhost:')}`);
  }
  say('  3. /fleet settings gives people their roles (FLEET_VIEWERS U0REQUESTER, say) and the channels;');
  say('     then /fleet balance shows that partner’s account, and only its own.');
  say();
  say(`  Postgres: schema ${demo.database.schema} and role ${demo.database.role} on ${redacted(databaseUrl)}, dropped on exit.`);
  say('  Sandbox data, no real money. Ctrl-C stops.');

  stopOnSignals(demo);
}

/** The URL without its password. */
function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
