/** `npm run sandbox`: the sandbox Fleet API on its own, for trying the app or the API by hand. */
import { startSandbox } from './server.js';

function wholeNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a whole number of 0 or more.`);
    process.exit(1);
  }
  return value;
}

const port = wholeNumber('PORT', 4010);
const activitySeconds = wholeNumber('SANDBOX_ACTIVITY_SECONDS', 10);
const seed = process.env.SANDBOX_SEED ? wholeNumber('SANDBOX_SEED', 0) : undefined;
const accountCount = wholeNumber('SANDBOX_ACCOUNTS', 1);
if (accountCount < 1 || accountCount > 100) {
  console.error('SANDBOX_ACCOUNTS must be from 1 to 100.');
  process.exit(1);
}

const sandbox = await startSandbox({
  port,
  host: process.env.SANDBOX_HOST?.trim() || '127.0.0.1',
  apiKey: process.env.SANDBOX_API_KEY?.trim() || undefined,
  seed,
  accounts: Array.from({ length: accountCount }, () => ({})),
  activityIntervalMs: activitySeconds * 1000,
});

console.log(`Sandbox Fleet API listening on ${sandbox.url}`);
if (sandbox.accounts.length === 1) console.log(`API key: ${sandbox.apiKey}`);
else {
  // One fleet account per key on the same URL, as a platform serves its partners.
  console.log(`${sandbox.accounts.length} fleet accounts, one API key each:`);
  for (const [index, account] of sandbox.accounts.entries()) console.log(`  account ${index + 1}: ${account.apiKey}`);
}
console.log(activitySeconds > 0 ? `A new transaction arrives every ${activitySeconds} s.` : 'No background activity.');
console.log('\nTry:');
console.log(`  curl -s -H "Authorization: Bearer ${sandbox.apiKey}" ${sandbox.url}/api/v1/b2b/account/balance`);
console.log(`  curl -s -H "Authorization: Bearer ${sandbox.apiKey}" "${sandbox.url}/api/v1/b2b/account/transactions?limit=5"`);
console.log('\nRun the app against it with FLEET_API_URL and FLEET_API_KEY set to the values above. Ctrl-C stops.');

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) process.exit(130);
  stopping = true;
  console.log(`\n${signal}: stopping the sandbox.`);
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error('The sandbox did not close cleanly:', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
