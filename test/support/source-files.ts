/** The product's sources, for the tests that read them (architecture, one money formatter). */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The repository's root, for the tests that read beyond `src/`. */
export const ROOT = resolve(SRC, '..');

/** Every `.ts` file under `src/`, as a path relative to it with `/` separators. */
export function sourceFiles(dir = SRC): string[] {
  return filesUnder(dir, SRC, ['.ts']);
}

/** Every file under `dir` whose name ends with one of `endings`, as a path relative to `base`. */
export function filesUnder(dir: string, base: string, endings: string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path, base, endings);
    return endings.some((ending) => entry.name.endsWith(ending)) ? [relative(base, path).split('\\').join('/')] : [];
  });
}

/** The folders beside the product that hold code: `packages/<name>/src` and `packages/<name>/test`. */
export function packageFolders(kind: 'src' | 'test'): string[] {
  const packages = join(ROOT, 'packages');
  return readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packages, entry.name, kind))
    .filter((dir) => existsSync(dir));
}
