// @ts-check
/**
 * The demo compiled ahead: `npm run demo` runs one JavaScript file per entry instead of compiling
 * about 220 TypeScript files on the fly at each start (tsx: seconds). Bundled with esbuild into
 * node_modules/.cache/fleet-treasury-demo/ (packages stay external, loaded from node_modules), at
 * install (postinstall.mjs) and again by the launcher whenever a source file is newer than the bundle.
 * Each file's `import.meta.url` keeps meaning its own source file, so paths beside it still resolve;
 * those are absolute, so a bundle made in another folder (a checkout moved or copied with its
 * node_modules) is made again rather than run.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'fleet-treasury-demo');
/** Beside the bundles: the checkout they were made in, whose absolute paths they hold. */
const STAMP = 'bundle-root.json';

/** @type {Record<string, string>} */
const ENTRIES = {
  main: 'packages/local-slack/src/demo/main.ts',
  'prepare-cluster': 'packages/local-slack/src/demo/prepare-cluster.ts',
};
/** What the bundles are made of: a change to any file in these makes them stale. */
const SOURCES = ['src', 'packages/local-slack/src', 'packages/local-slack/scripts'];

/** True when the dev dependencies that compile the demo are installed (not in a production install). */
export async function canBundle() {
  return import('esbuild').then(
    () => true,
    () => false,
  );
}

/** The newest modification time (ms) of the files the bundles are made of. */
async function newestSource() {
  let newest = 0;
  for (const dir of SOURCES) {
    const entries = await readdir(path.join(ROOT, dir), { recursive: true, withFileTypes: true });
    const times = await Promise.all(
      entries.filter((entry) => entry.isFile()).map((entry) => stat(path.join(entry.parentPath, entry.name)).then((info) => info.mtimeMs)),
    );
    newest = Math.max(newest, ...times);
  }
  return newest;
}

/**
 * The bundle of `entry` (`main` or `prepare-cluster`), compiled first when missing, older than a
 * source or made in another folder.
 * @param {string} entry
 */
export async function demoBundle(entry) {
  const file = path.join(OUT_DIR, `${entry}.mjs`);
  if (await isBundleFresh(file)) return file;
  await bundle();
  return file;
}

/**
 * True when `file`, a bundle in `outDir`, is newer than every source and was made in this checkout.
 * @param {string} file
 * @param {string} [outDir]
 */
export async function isBundleFresh(file, outDir = OUT_DIR) {
  const built = await stat(file).then(
    (info) => info.mtimeMs,
    () => -1,
  );
  if (built <= (await newestSource())) return false;
  const stamp = await readFile(path.join(outDir, STAMP), 'utf8').then(
    (text) => /** @type {unknown} */ (JSON.parse(text)),
    () => undefined,
  );
  return typeof stamp === 'object' && stamp !== null && /** @type {{ root?: unknown }} */ (stamp).root === ROOT;
}

/** Compiles every entry; each file written aside and renamed, so that a demo starting meanwhile never reads half a file. */
export async function bundle() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // The bot's code in chunks of their own, loaded once main.ts has started the database.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // PGlite finds its WebAssembly and data files beside its own module: loaded from node_modules.
    external: ['@electric-sql/pglite', '@electric-sql/pglite/*'],
    // What the bundled CommonJS packages require of Node's own modules.
    banner: { js: "import { createRequire as __demoRequire } from 'node:module'; const require = __demoRequire(import.meta.url);" },
    write: false,
    logLevel: 'warning',
    plugins: [sourceUrls],
  });
  await mkdir(OUT_DIR, { recursive: true });
  for (const output of result.outputFiles) {
    const partial = `${output.path}.${process.pid}-${randomBytes(4).toString('hex')}`;
    await writeFile(partial, output.contents);
    await rename(partial, output.path);
  }
  await writeFile(path.join(OUT_DIR, STAMP), JSON.stringify({ root: ROOT }));
  // Chunks of earlier builds: nothing refers to them any more.
  const written = new Set(result.outputFiles.map((output) => path.basename(output.path)));
  for (const name of await readdir(OUT_DIR)) {
    if (/^chunk-.*\.mjs$/.test(name) && !written.has(name)) await rm(path.join(OUT_DIR, name), { force: true });
  }
}

/** @type {import('esbuild').Plugin} */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};
