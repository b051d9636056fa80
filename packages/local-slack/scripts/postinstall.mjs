// @ts-check
/**
 * Run by `npm install` and `npm ci` (the root's postinstall): prepares the demo ahead, so that the
 * first `npm run demo` starts in about a second: its compiled bundle, and a snapshot of a blank PGlite
 * database with the migrations applied. Does nothing without the dev dependencies (a production install), and
 * never fails the install: without it the demo prepares what it needs at start, more slowly.
 */
import { pathToFileURL } from 'node:url';

try {
  const { bundle, canBundle, demoBundle } = await import('./demo-bundle.mjs');
  if (await canBundle()) {
    await bundle();
    // The bundle is compiled JavaScript without types: prepare-cluster.ts is what it runs.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
    const prepare = /** @type {{ prepareDemoCluster(): Promise<unknown> }} */ (await import(pathToFileURL(await demoBundle('prepare-cluster')).href));
    await prepare.prepareDemoCluster();
  }
} catch (error) {
  console.error(
    `fleet-treasury-bot: the demo was not prepared ahead (${error instanceof Error ? error.message : String(error)}); npm run demo will prepare it at start.`,
  );
}
