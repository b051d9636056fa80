/**
 * Renders runway charts to PNG off the main thread: one worker thread (started on first use, started
 * again after a crash) that rasterises the SVG `svg.ts` builds; `startWorker` finds it from source and in `dist/`.
 */
import type { Worker } from 'node:worker_threads';
import type { Locale } from '../../i18n/index.js';
import { startWorker } from '../../runtime/worker-thread.js';
import type { Runway } from '../figure.js';
import type { RenderAnswer, RenderRequest } from './render-worker.js';
import { runwayChartSvg } from './svg.js';

export interface RunwayChart {
  png: Buffer;
  width: number;
  height: number;
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
    const worker = startWorker(import.meta.url, 'render-worker');
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
