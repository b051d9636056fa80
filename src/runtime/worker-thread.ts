/**
 * Starts a worker thread from a module beside the caller, in every way the app runs: from source
 * (tsx, vitest: the worker's TypeScript is loaded through tsx) and from `dist/` after `npm run build`
 * (plain JavaScript, the same name ending in `.js`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The worker `name` (no extension) beside the module at `besideUrl` (its `import.meta.url`). From source,
 * a bootstrap registers tsx's loader in the worker, then imports it: `--import tsx` in `execArgv` is not
 * honoured by worker threads on every Node version the app supports.
 */
export function startWorker(besideUrl: string, name: string, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!besideUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, besideUrl), options);
  // The ES module entry of tsx/esm/api, as its package.json exports it (require.resolve would give the CommonJS one).
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
  const source = new URL(`./${name}.ts`, besideUrl).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`, {
    ...options,
    eval: true,
  });
}
