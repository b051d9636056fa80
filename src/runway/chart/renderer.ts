/**
 * Renders runway charts to PNG off the main thread: one worker thread (started on first use, started
 * again after a crash) that rasterises the SVG `svg.ts` builds. Works from source (tsx, vitest: the
 * worker is loaded through tsx) and from `dist/` after `npm run build` (plain JavaScript).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Locale } from '../../i18n/index.js';
import type { Runway } from '../figure.js';
import type { RenderAnswer, RenderRequest } from './render-worker.js';
import { runwayChartSvg } from './svg.js';

export interface RunwayChart {
  png: Buffer;
  width: number;
  height: number;
}

const FROM_SOURCE = import.meta.url.endsWith('.ts');

/**
 * The worker from its TypeScript source (under tsx or vitest, never in production): a bootstrap that
 * registers tsx's loader in the worker, then imports it. `--import tsx` in `execArgv` is not honoured
 * by worker threads on every Node version the app supports.
 */
function sourceWorker(): Worker {
  // The ES module entry of tsx/esm/api, as its package.json exports it (require.resolve would give the CommonJS one).
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
  const source = new URL('./render-worker.ts', import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(source)}); });`, { eval: true });
}

export class ChartRenderer {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (png: Buffer) => void; reject: (error: Error) => void }>();

  /** The chart of `runway` in `locale`'s words and numbers; undefined when there is nothing to draw. */
  async render(runway: Runway, locale: Locale): Promise<RunwayChart | undefined> {
    const drawn = runwayChartSvg(runway, locale);
    if (!drawn) return undefined;
    return { png: await this.rasterise(drawn.svg), width: drawn.width, height: drawn.height };
  }

  /** SVG text to PNG bytes, in the worker. */
  rasterise(svg: string): Promise<Buffer> {
    const worker = this.started();
    const id = this.nextId++;
    // Held while a chart is being drawn, let go when idle: an idle worker keeps no process alive.
    worker.ref();
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, svg } satisfies RenderRequest);
    }).finally(() => {
      if (this.pending.size === 0) worker.unref();
    });
  }

  /** Stops the worker; charts still rendering are refused. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('the chart renderer is closed'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = FROM_SOURCE ? sourceWorker() : new Worker(new URL('./render-worker.js', import.meta.url));
    worker.on('message', (answer: RenderAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if ('error' in answer) waiting.reject(new Error(`chart rendering failed: ${answer.error}`));
      else waiting.resolve(Buffer.from(answer.png.buffer, answer.png.byteOffset, answer.png.byteLength));
    });
    const lost = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the chart worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}
