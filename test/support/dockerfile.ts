/**
 * The Dockerfile's stages run without a container engine: each stage gets a folder that stands for
 * its image's root, its RUN commands run there with `sh -c` in its WORKDIR and under its ENV, COPY
 * copies from the build context or from another stage's folder, and stages run side by side until a
 * `COPY --from` waits for the stage it names, as BuildKit does. What only an engine does is left out
 * and said so: the base image (the host's Node and npm stand in for it), the user a RUN runs as,
 * ownership (a recorded `chown` stands in: the host may have no such user) and cache mounts.
 *
 * Understood: FROM … AS name, WORKDIR, ENV, COPY [--from] [--chown], RUN [--mount], USER, EXPOSE,
 * HEALTHCHECK [options] CMD [exec form], CMD [exec form]. Anything else stops the build with its line,
 * so the test never passes over an instruction it did not run.
 */
import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

/** One stage once run: its folder, and what the image keeps of it. */
export interface BuiltStage {
  name: string;
  /** The folder standing for the image's `/`. */
  root: string;
  /** WORKDIR as the image sees it, such as `/app`. */
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  exposed: string[];
  cmd: string[] | undefined;
  healthcheck: string[] | undefined;
  /** The arguments of every `chown` its RUN commands called. */
  chowns: string[][];
  /** Seconds each RUN took, by command. */
  runSeconds: { command: string; seconds: number }[];
}

/** Instructions by stage, continuation lines joined, comments and parser directives left out. */
export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  let pending = '';
  let startLine = 0;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith('#') || (trimmed === '' && pending === '')) return;
    if (pending === '') startLine = index + 1;
    if (trimmed.endsWith('\\')) {
      pending += `${trimmed.slice(0, -1).trim()} `;
      return;
    }
    const whole = `${pending}${trimmed}`.trim();
    pending = '';
    const keyword = whole.split(/\s+/)[0] ?? '';
    const instruction = { keyword: keyword.toUpperCase(), args: whole.slice(keyword.length).trim(), line: startLine };
    if (instruction.keyword === 'FROM') {
      const from = /^(\S+)\s+AS\s+(\S+)$/i.exec(instruction.args);
      if (!from) throw new Error(`Dockerfile line ${startLine}: name every stage (FROM image AS name)`);
      stages.push({ base: from[1]!, name: from[2]!, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile line ${startLine}: ${instruction.keyword} before any FROM`);
      stage.instructions.push(instruction);
    }
  });
  return stages;
}

export interface BuildOptions {
  /** The build context: a folder holding what `docker build` would be sent. */
  context: string;
  /** Where the stages' folders go. */
  root: string;
  /** The environment every RUN starts from (the host's PATH, HOME, npm settings). */
  env: Record<string, string>;
}

/** Runs every stage; resolves with each by name, or rejects naming the instruction that failed. */
export async function buildStages(stages: Stage[], options: BuildOptions): Promise<Map<string, BuiltStage>> {
  const names = new Set(stages.map((stage) => stage.name));
  const running = new Map<string, Promise<BuiltStage>>();
  for (const stage of stages) {
    running.set(
      stage.name,
      runStage(stage, options, (name) => {
        if (!names.has(name)) throw new Error(`COPY --from=${name}: no stage has that name`);
        return running.get(name)!;
      }),
    );
  }
  const built = await Promise.all(running.values());
  return new Map(built.map((stage) => [stage.name, stage]));
}

async function runStage(stage: Stage, options: BuildOptions, stageNamed: (name: string) => Promise<BuiltStage>): Promise<BuiltStage> {
  const root = path.join(options.root, 'stages', stage.name);
  const bin = path.join(options.root, 'bin', stage.name);
  await mkdir(root, { recursive: true });
  const chownLog = await chownRecorder(bin);
  const built: BuiltStage = {
    name: stage.name,
    root,
    workdir: '/',
    env: {},
    user: undefined,
    exposed: [],
    cmd: undefined,
    healthcheck: undefined,
    chowns: [],
    runSeconds: [],
  };
  const inImage = (imagePath: string) => path.join(root, path.posix.resolve(built.workdir, imagePath));
  for (const { keyword, args, line } of stage.instructions) {
    const where = `Dockerfile line ${line} (${stage.name}: ${keyword} ${args})`;
    switch (keyword) {
      case 'WORKDIR':
        built.workdir = path.posix.resolve(built.workdir, args);
        await mkdir(inImage('.'), { recursive: true });
        break;
      case 'ENV':
        Object.assign(built.env, parseEnv(args, where));
        break;
      case 'USER':
        built.user = args;
        break;
      case 'EXPOSE':
        built.exposed.push(...args.split(/\s+/));
        break;
      case 'CMD':
        built.cmd = execForm(args, where);
        break;
      case 'HEALTHCHECK': {
        const check = /^(?:--\S+\s+)*CMD\s+(.*)$/s.exec(args);
        if (!check) throw new Error(`${where}: expected HEALTHCHECK [options] CMD [exec form]`);
        built.healthcheck = execForm(check[1]!, where);
        break;
      }
      case 'COPY': {
        const { flags, words } = splitFlags(args, ['--from', '--chown'], where);
        if (words.length < 2) throw new Error(`${where}: expected sources and a destination`);
        const destination = words.at(-1)!;
        const sources = words.slice(0, -1);
        const from = flags.get('--from');
        const sourceRoot = from === undefined ? options.context : (await stageNamed(from)).root;
        for (const source of sources) {
          if (/[*?[]/.test(source)) throw new Error(`${where}: name COPY sources without wildcards`);
          const sourcePath = from === undefined ? path.join(sourceRoot, source) : path.join(sourceRoot, path.posix.resolve('/', source));
          const found = await stat(sourcePath).catch(() => undefined);
          if (!found)
            throw new Error(
              `${where}: ${source} is not in ${from === undefined ? 'the build context (is it committed, and not in .dockerignore?)' : `stage ${from}`}`,
            );
          const intoFolder = destination.endsWith('/') || sources.length > 1;
          const target = found.isDirectory() || !intoFolder ? inImage(destination) : path.join(inImage(destination), path.basename(source));
          await cp(sourcePath, target, { recursive: true });
        }
        break;
      }
      case 'RUN': {
        const { words } = splitFlags(args, ['--mount'], where, { keepRest: true });
        const command = words.join(' ');
        const began = performance.now();
        const outcome = await runShell(command, {
          cwd: inImage('.'),
          env: { ...options.env, ...built.env, PATH: `${bin}:${options.env.PATH ?? ''}`, CHOWN_LOG: chownLog },
        });
        if (outcome.code !== 0) throw new Error(`${where} exited with ${outcome.code}:\n${outcome.output.slice(-4000)}`);
        built.runSeconds.push({ command, seconds: Math.round((performance.now() - began) / 100) / 10 });
        break;
      }
      default:
        throw new Error(`${where}: this test does not run ${keyword}; teach test/support/dockerfile.ts what it means`);
    }
  }
  built.chowns = await readChowns(chownLog);
  return built;
}

/** `KEY=value KEY2="two words"` (or the legacy `KEY value`). */
function parseEnv(args: string, where: string): Record<string, string> {
  if (!args.includes('=')) {
    const [key = '', ...value] = args.split(/\s+/);
    return { [key]: value.join(' ') };
  }
  const pairs: Record<string, string> = {};
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|\S*)/g)) pairs[match[1]!] = match[3] ?? match[2]!;
  if (Object.keys(pairs).length === 0) throw new Error(`${where}: expected KEY=value pairs`);
  return pairs;
}

/** `["node", "dist/main.js"]`: the only form that runs without a shell as PID 1. */
function execForm(args: string, where: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw new Error(`${where}: write it in exec form, a JSON array`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part) => typeof part === 'string'))
    throw new Error(`${where}: expected a JSON array of strings`);
  return parsed;
}

/** Leading `--flag=value` options (only `allowed` ones), then the words that follow. */
function splitFlags(args: string, allowed: string[], where: string, { keepRest = false } = {}): { flags: Map<string, string>; words: string[] } {
  const flags = new Map<string, string>();
  let rest = args;
  for (let flag = /^(--[a-z-]+)=(\S+)\s+/.exec(rest); flag; flag = /^(--[a-z-]+)=(\S+)\s+/.exec(rest)) {
    if (!allowed.includes(flag[1]!)) throw new Error(`${where}: this test does not know ${flag[1]}`);
    flags.set(flag[1]!, flag[2]!);
    rest = rest.slice(flag[0].length);
  }
  return { flags, words: keepRest ? [rest] : rest.split(/\s+/).filter(Boolean) };
}

/** A `chown` first on PATH that records its arguments instead of changing owners. */
async function chownRecorder(bin: string): Promise<string> {
  await mkdir(bin, { recursive: true });
  const log = path.join(bin, 'chown.log');
  await writeFile(log, '');
  const script = path.join(bin, 'chown');
  await writeFile(script, '#!/bin/sh\nprintf "%s\\n" "$*" >> "$CHOWN_LOG"\n');
  await chmod(script, 0o755);
  return log;
}

async function readChowns(log: string): Promise<string[][]> {
  return (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '));
}

function runShell(command: string, options: { cwd: string; env: Record<string, string> }): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

/**
 * Removes from `context` what `.dockerignore` keeps out of a build's context. Patterns are Docker's:
 * relative to the context's root, `*` within one path segment, `**` across any; a folder that matches
 * takes its contents with it. Exceptions (`!pattern`) are refused rather than half understood.
 */
export async function applyDockerignore(context: string, ignoreText: string): Promise<void> {
  const patterns = ignoreText
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const exception = patterns.find((pattern) => pattern.startsWith('!'));
  if (exception) throw new Error(`.dockerignore: this test does not apply exceptions (${exception})`);
  const matchers = patterns.map(globToRegExp);
  const visit = async (relative: string): Promise<void> => {
    for (const entry of await readdir(path.join(context, relative), { withFileTypes: true })) {
      const entryPath = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (matchers.some((matcher) => matcher.test(entryPath))) await rm(path.join(context, entryPath), { recursive: true, force: true });
      else if (entry.isDirectory()) await visit(entryPath);
    }
  };
  await visit('');
}

function globToRegExp(pattern: string): RegExp {
  const cleaned = path.posix.normalize(pattern).replace(/^\/+|\/+$/g, '');
  let source = '';
  for (let i = 0; i < cleaned.length; i++) {
    const char = cleaned[i]!;
    if (cleaned.startsWith('**/', i)) {
      source += '(?:.*/)?';
      i += 2;
    } else if (cleaned.startsWith('**', i)) {
      source += '.*';
      i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
