import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from '../src/config/config.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** README.md, CONTRIBUTING.md and every Markdown file in docs/, as paths from the repository's root. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs.sort()];
}

/** The text a reader sees as prose: fenced code blocks and code spans removed (links there are examples). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Every relative link target of a Markdown file: `[text](target)` and `![alt](target)`. */
function relativeLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The links of the docs that lead nowhere, as `file → target (why)`. */
function brokenLinks(): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    for (const target of relativeLinks(read(file))) {
      const [path = '', anchor] = target.split('#', 2);
      const resolved = path === '' ? file : relative(root, join(root, dirname(file), decodeURIComponent(path)));
      if (!existsSync(join(root, resolved))) {
        broken.push(`${file} → ${target} (no file ${resolved})`);
      } else if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(read(resolved)).has(anchor)) {
        broken.push(`${file} → ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
  }
  return broken;
}

/** The variables a table of docs/configuration.md documents: the first cell of each row, in code. */
function documentedVariables(): string[] {
  return [...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]!);
}

/** The bot scopes manifest.yml asks for, in its order. */
function manifestScopes(): string[] {
  const lines = read('manifest.yml')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const after = lines.slice(lines.indexOf('    bot:') + 1);
  const end = after.findIndex((line) => !line.startsWith('      - '));
  return after.slice(0, end === -1 ? after.length : end).map((line) => line.trim().slice(2));
}

/** The scopes docs/setup-slack.md lists: the first cell of each row of its scopes table. */
function documentedScopes(): string[] {
  const section =
    read('docs/setup-slack.md')
      .split(/^## /m)
      .find((part) => part.startsWith('The scopes')) ?? '';
  return [...section.matchAll(/^\| `([a-z]+(?::[a-z]+)?)` \|/gm)].map((match) => match[1]!);
}

describe('the README and docs/', () => {
  it('the README fits on one screen of at most 200 lines and keeps the two commands as shell lines', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    expect(readme).toMatch(/^npm install && npm run demo\b/m);
    expect(readme).toMatch(/^npm test\b/m);
  });

  it('every relative link in README.md, CONTRIBUTING.md and docs/*.md leads to a file, and every #anchor to a heading of it', () => {
    expect(brokenLinks()).toEqual([]);
  });

  it('the docs of every reader are there and linked from the README', () => {
    const readme = read('README.md');
    for (const name of ['setup-slack', 'configuration', 'deploy', 'operations', 'payouts', 'performance', 'architecture']) {
      expect(existsSync(join(root, `docs/${name}.md`)), `docs/${name}.md`).toBe(true);
      expect(readme, `README links docs/${name}.md`).toContain(`(docs/${name}.md`);
    }
    expect(readme, 'README links CONTRIBUTING.md').toContain('(CONTRIBUTING.md)');
  });

  it('docs/configuration.md documents every variable of the config schema, and no other', () => {
    const inSchema = Object.keys(envSchema.shape).sort();
    const documented = documentedVariables();
    expect(
      documented.filter((name, index) => documented.indexOf(name) !== index),
      'documented twice',
    ).toEqual([]);
    expect(
      inSchema.filter((name) => !documented.includes(name)),
      'in the schema, missing from the docs',
    ).toEqual([]);
    expect(
      documented.filter((name) => !inSchema.includes(name)),
      'in the docs, not in the schema',
    ).toEqual([]);
  });

  it('docs/setup-slack.md lists exactly the bot scopes manifest.yml asks for', () => {
    expect(manifestScopes().length).toBeGreaterThan(0);
    expect(documentedScopes().sort()).toEqual(manifestScopes().sort());
  });
});
