/**
 * What the event loop's longest delay was made of, on Linux: a 10 ms timer notes, at each tick, how
 * late it is and how much the main thread ran meanwhile (`/proc/self/task/<pid>/schedstat`: time on
 * a core, time waiting for one). A delay the thread spent running is the loop blocked by the
 * process's own work (JavaScript, GC's pauses); a delay spent waiting for a core is the machine's
 * other threads and processes taking the cores. Elsewhere only the delays are reported.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

export interface Stalls {
  /** The longest gap between two ticks beyond the timer's 10 ms. */
  longest_ms: number;
  /** Of that gap, the main thread's time on a core and its time waiting for one. */
  longest_running_ms?: number;
  longest_waiting_ms?: number;
  /** The most the main thread ran between two ticks: the longest the process held its own loop. */
  most_running_ms?: number;
  /** Garbage collection's pauses within that stretch (V8's `gc` performance entries). */
  most_running_gc_ms?: number;
  /** When that stretch ended, in ms since the process started (`performance.now()`): to find it in a `--cpu-prof` profile. */
  most_running_at_ms?: number;
}

const TICK_MS = 10;

function threadTimes(): { runningNs: number; waitingNs: number } | undefined {
  try {
    const [running, waiting] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return running === undefined || waiting === undefined ? undefined : { runningNs: running, waitingNs: waiting };
  } catch {
    return undefined;
  }
}

export class StallWatch {
  private timer: NodeJS.Timeout | undefined;
  private stalls: Stalls = { longest_ms: 0 };
  private gcObserver: PerformanceObserver | undefined;
  /** GC pauses seen (start and duration, ms); entries arrive after the pause, so they are matched at the end. */
  private gcPauses: Array<[number, number]> = [];
  private mostRunningWindow: [number, number] | undefined;

  start(): void {
    this.stop();
    this.stalls = { longest_ms: 0 };
    this.gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.gcPauses.push([entry.startTime, entry.duration]);
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
    let last = performance.now();
    let times = threadTimes();
    this.timer = setInterval(() => {
      const now = performance.now();
      const next = threadTimes();
      const late = now - last - TICK_MS;
      const running = next && times ? (next.runningNs - times.runningNs) / 1e6 : undefined;
      const waiting = next && times ? (next.waitingNs - times.waitingNs) / 1e6 : undefined;
      if (late > this.stalls.longest_ms) {
        this.stalls.longest_ms = late;
        if (running !== undefined) this.stalls.longest_running_ms = running;
        if (waiting !== undefined) this.stalls.longest_waiting_ms = waiting;
      }
      if (running !== undefined && running > (this.stalls.most_running_ms ?? 0)) {
        this.stalls.most_running_ms = running;
        this.mostRunningWindow = [last, now];
        this.stalls.most_running_at_ms = now;
      }
      last = now;
      times = next;
    }, TICK_MS);
  }

  stop(): Stalls {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.gcObserver?.disconnect();
    this.gcObserver = undefined;
    const window = this.mostRunningWindow;
    if (window) {
      this.stalls.most_running_gc_ms = this.gcPauses.filter(([start]) => start >= window[0] && start < window[1]).reduce((sum, [, ms]) => sum + ms, 0);
    }
    this.gcPauses = [];
    this.mostRunningWindow = undefined;
    return this.stalls;
  }
}
