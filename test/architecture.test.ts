/**
 * The shape of the code, read from its import lines: no import cycle in `src/` or in the packages
 * beside it, listeners that do not import each other and reach the domain through its front door, a
 * domain that knows nothing of Slack or of the environment, and files short enough to read. Type-only
 * imports count too.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYOUT_KINDS } from '../src/fleet/schemas.js';
import { ROOT, SRC, filesUnder, packageFolders, sourceFiles } from './support/source-files.js';

// `import … from '…'`, `export … from '…'` (both may span lines) and `import '…'`.
const SPECIFIER = /(?:\bfrom\s+|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The known files a file imports, through relative specifiers (`./x.js` names `x.ts` unless `x.js` exists). */
function importsOf(base: string, file: string, known: Set<string>): string[] {
  const text = readFileSync(join(base, file), 'utf8');
  const targets = new Set<string>();
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    if (!specifier?.startsWith('.')) continue;
    const path = join(dirname(file), specifier).split('\\').join('/');
    const target = path.replace(/\.js$/, '.ts');
    const candidates = [path, target, target.endsWith('.ts') ? target : `${target}.ts`, `${target}/index.ts`];
    const found = candidates.find((candidate) => known.has(candidate));
    if (found) targets.add(found);
  }
  return [...targets];
}

/** Who imports whom among `files`, each named relative to `base`. */
function importGraph(base: string, files: string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(base, file, known)]));
}

/** Each cycle once, as the files around it (`a → b → a`), found by a depth-first walk. */
function findCycles(graph: Map<string, string[]>): string[] {
  const cycles = new Set<string>();
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string) => {
    if (done.has(file)) return;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      if (onPath.has(next)) {
        const loop = path.slice(path.indexOf(next));
        // Start each cycle at its smallest file, so the same circle is reported once.
        const start = loop.indexOf([...loop].sort()[0]!);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        cycles.add([...turned, turned[0]].join(' → '));
      } else {
        visit(next);
      }
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return [...cycles].sort();
}

const LISTENERS = 'slack/listeners/';
const WIRING = 'app/';
const ENTRY_POINTS = ['bot.ts', 'main.ts'];
const RUNTIME = 'runtime/';
const CORE = 'core/';
const DOMAIN = ['payouts/', 'feed/', 'fleet/', 'store/', 'account/', 'ledger/', 'digest/', 'home/', 'i18n/', 'runway/', 'partner-records/', 'workflow/'];

const CODE = ['.ts', '.js', '.mjs'];

describe('the imports of src/', () => {
  const graph = importGraph(SRC, sourceFiles());
  const edges = [...graph].flatMap(([file, targets]) => targets.map((target) => ({ file, target })));

  it('sees the files it checks', () => {
    expect(graph.get('bot.ts')).toContain('app/slack.ts');
    expect(graph.get('app/slack.ts')).toContain('slack/transport/app.ts');
  });

  it('never have a listener import another listener, except the index that registers them all', () => {
    const crossings = edges.filter(({ file, target }) => file.startsWith(LISTENERS) && target.startsWith(LISTENERS) && file !== `${LISTENERS}index.ts`);
    expect(crossings.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('never have the domain, the Fleet client or the store import the Slack surface or the configuration', () => {
    const crossings = edges.filter(
      ({ file, target }) => DOMAIN.some((dir) => file.startsWith(dir)) && (target.startsWith('slack/') || target.startsWith('config/')),
    );
    expect(crossings.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('have the wiring (app/) imported by the entry points alone', () => {
    const crossings = edges.filter(({ file, target }) => target.startsWith(WIRING) && !file.startsWith(WIRING) && !ENTRY_POINTS.includes(file));
    expect(crossings.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('keep the runtime (runtime/) a building block: it imports neither the wiring, Slack nor the domain', () => {
    const crossings = edges.filter(({ file, target }) => file.startsWith(RUNTIME) && [WIRING, 'slack/', ...DOMAIN].some((dir) => target.startsWith(dir)));
    expect(crossings.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('keep the building blocks (core/) free of the wiring, Slack and the configuration', () => {
    const crossings = edges.filter(({ file, target }) => file.startsWith(CORE) && [WIRING, 'slack/', 'config/'].some((dir) => target.startsWith(dir)));
    expect(crossings.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });

  it('have listeners reach payouts and the feed only through their index', () => {
    const crossings = edges.filter(
      ({ file, target }) => file.startsWith(LISTENERS) && ['payouts/', 'feed/'].some((dir) => target.startsWith(dir) && target !== `${dir}index.ts`),
    );
    expect(crossings.map(({ file, target }) => `${file} → ${target}`)).toEqual([]);
  });
});

describe('the imports of src/ and packages/*/src', () => {
  // One graph over both, so that a circle through the product and a package is seen too.
  const folders = [SRC, ...packageFolders('src')];
  const graph = importGraph(
    ROOT,
    folders.flatMap((dir) => filesUnder(dir, ROOT, CODE)),
  );

  it('sees the files it checks, in the product and in the packages', () => {
    expect(graph.get('src/bot.ts')).toContain('src/app/slack.ts');
    expect(graph.get('src/app/slack.ts')).toContain('src/slack/transport/app.ts');
    expect(graph.get('packages/local-slack/src/workspace/local-slack.ts')).toContain('packages/local-slack/src/workspace/web-api.ts');
    expect(graph.get('packages/local-slack/src/workspace/page/app.js')).toContain('packages/local-slack/src/workspace/page/blocks.js');
  });

  it('form no cycle, type-only imports included', () => {
    expect(findCycles(graph)).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('reports a circle of three files once, from its smallest file', () => {
    const graph = new Map([
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['a.ts', ['b.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(findCycles(graph)).toEqual(['a.ts → b.ts → c.ts → a.ts']);
  });

  it('finds nothing in a graph without circles', () => {
    expect(
      findCycles(
        new Map([
          ['a.ts', ['b.ts', 'c.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('the writes of a payout request', () => {
  // The repository's functions that change a request's row or record its events.
  const WRITERS = ['updateRequest', 'updateWhere', 'appendEvent'];
  const SQL = /\b(?:UPDATE\s+payout_requests|INSERT\s+INTO\s+payout_(?:requests|events)|DELETE\s+FROM\s+payout_(?:requests|events))\b/i;
  const texts = new Map(sourceFiles().map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));
  const calls = (text: string, name: string) => new RegExp(`\\b${name}\\s*\\(`).test(text);

  it("go through payouts/transitions.ts alone: no other module calls the repository's writers", () => {
    expect(WRITERS.every((name) => calls(texts.get('payouts/transitions.ts') ?? '', name))).toBe(true);
    const others = [...texts].filter(
      ([file, text]) => file !== 'payouts/transitions.ts' && file !== 'payouts/repository.ts' && WRITERS.some((name) => calls(text, name)),
    );
    expect(others.map(([file]) => file)).toEqual([]);
  });

  it('are written in SQL in payouts/repository.ts alone, besides the migrations', () => {
    expect(SQL.test(texts.get('payouts/repository.ts') ?? '')).toBe(true);
    const others = [...texts].filter(([file, text]) => file !== 'payouts/repository.ts' && !file.startsWith('store/migrations/') && SQL.test(text));
    expect(others.map(([file]) => file)).toEqual([]);
  });
});

describe('the payout kinds', () => {
  const kinds = PAYOUT_KINDS.join('|');
  // `kind === 'mobile_money'`, `'bank_account' !== draft.kind`: a decision that belongs to a rail.
  const COMPARISON = new RegExp(`[!=]==?\\s*['"\`](?:${kinds})['"\`]|['"\`](?:${kinds})['"\`]\\s*[!=]==?`);
  const texts = new Map(sourceFiles().map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));

  it('are compared with a constant in payouts/rails/ alone: elsewhere a rail is looked up or the switch is exhaustive', () => {
    expect(texts.size).toBeGreaterThan(100);
    expect(COMPARISON.test("draft.kind === 'mobile_money'") && COMPARISON.test("'bank_account' !== kind")).toBe(true);
    expect(COMPARISON.test("case 'mobile_money':")).toBe(false);
    // The migrations are SQL fixed in time (`kind = 'mobile_money'`), which the pattern does not match anyway.
    const others = [...texts].filter(([file, text]) => !file.startsWith('payouts/rails/') && COMPARISON.test(text));
    expect(others.map(([file]) => file)).toEqual([]);
  });
});

describe('the size of files', () => {
  // Past this, a file holds two ideas: split it by what changes together.
  const LIMIT = 450;
  const folders = ['src', 'test', 'bench'].map((dir) => join(ROOT, dir)).concat(packageFolders('src'), packageFolders('test'));
  const files = folders.flatMap((dir) => filesUnder(dir, ROOT, CODE));
  // Counted as `wc -l` does: the line breaks.
  const lines = (file: string) => readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;

  it('reads the sources, the tests, the benches and the packages', () => {
    expect(files).toContain('src/bot.ts');
    expect(files).toContain('test/architecture.test.ts');
    expect(files).toContain('packages/local-slack/src/workspace/page/app.js');
    expect(files).toContain('packages/local-slack/test/demo/browser.test.ts');
  });

  it(`stays under ${LIMIT} lines in every code file`, () => {
    const long = files.filter((file) => lines(file) >= LIMIT).map((file) => `${file}: ${lines(file)} lines`);
    expect(long).toEqual([]);
  });
});
