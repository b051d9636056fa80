import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The launcher's script, plain JavaScript outside the compiled project: what the test uses of it. */
interface DemoBundleScript {
  ROOT: string;
  isBundleFresh: (file: string, outDir?: string) => Promise<boolean>;
}
const { ROOT, isBundleFresh } = (await import(new URL('../../scripts/demo-bundle.mjs', import.meta.url).href)) as DemoBundleScript;

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A bundle folder with a `main.mjs` newer than every source, stamped as made in `root` (or not stamped). */
async function bundleFolder(root: string | undefined): Promise<{ outDir: string; file: string }> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'ftb-demo-bundle-'));
  folders.push(outDir);
  const file = path.join(outDir, 'main.mjs');
  await writeFile(file, 'export {};\n');
  if (root !== undefined) await writeFile(path.join(outDir, 'bundle-root.json'), JSON.stringify({ root }));
  return { outDir, file };
}

describe("the demo's compiled bundle", () => {
  it('is reused when it is newer than the sources and was made in this checkout', async () => {
    const { outDir, file } = await bundleFolder(ROOT);
    expect(await isBundleFresh(file, outDir)).toBe(true);
  });

  it('is made again when it was made in another folder: its paths to the worker and the data files would point there', async () => {
    const moved = await bundleFolder('/somewhere/else/fleet-treasury-bot/');
    expect(await isBundleFresh(moved.file, moved.outDir)).toBe(false);
    const unstamped = await bundleFolder(undefined);
    expect(await isBundleFresh(unstamped.file, unstamped.outDir)).toBe(false);
  });

  it('is made again when it is missing', async () => {
    const { outDir } = await bundleFolder(ROOT);
    expect(await isBundleFresh(path.join(outDir, 'prepare-cluster.mjs'), outDir)).toBe(false);
  });
});
