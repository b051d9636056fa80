// @ts-check
/**
 * `npm run demo`: runs the demo's compiled bundle (see demo-bundle.mjs), compiling it first when the
 * install did not or a source file changed since. The demo itself is src/demo/main.ts.
 */
import { pathToFileURL } from 'node:url';
import { canBundle, demoBundle } from './demo-bundle.mjs';

if (!(await canBundle())) {
  console.error('The demo needs the development dependencies: run npm install (without --omit=dev) first.');
  process.exit(1);
}
await import(pathToFileURL(await demoBundle('main')).href);
