/**
 * `src/` is the product and ships alone: it must not reach into the local Slack package (or anywhere
 * else outside `src/`), and every package it names must be a production dependency, so the built app
 * runs after `npm prune --omit=dev`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

interface Import {
  file: string;
  specifier: string;
}

async function productImports(): Promise<Import[]> {
  const files = (await readdir(SRC, { recursive: true })).filter((file) => /\.[cm]?tsx?$/.test(file));
  const imports: Import[] = [];
  for (const file of files) {
    const text = await readFile(path.join(SRC, file), 'utf8');
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) imports.push({ file: path.join('src', file), specifier: fileName });
  }
  return imports;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe('the product in src/', () => {
  it('imports nothing outside src/: not the local Slack package, not the tests', async () => {
    const leaving = (await productImports())
      .filter(({ specifier }) => specifier.startsWith('.'))
      .filter(({ file, specifier }) => path.relative(SRC, path.resolve(ROOT, path.dirname(file), specifier)).startsWith('..'))
      .map(({ file, specifier }) => `${file}: ${specifier}`);
    expect(leaving).toEqual([]);
  });

  it('names only Node built-ins and its own production dependencies', async () => {
    const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const allowed = new Set([...Object.keys(manifest.dependencies ?? {}), ...builtinModules]);
    const undeclared = (await productImports())
      .filter(({ specifier }) => !specifier.startsWith('.') && !specifier.startsWith('node:'))
      .filter(({ specifier }) => !allowed.has(packageName(specifier)))
      .map(({ file, specifier }) => `${file}: ${specifier}`);
    expect(undeclared).toEqual([]);
  });
});
