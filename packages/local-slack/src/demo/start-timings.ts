/**
 * Where the demo's start goes, phase by phase: wall time since the process started and CPU time (all
 * threads) at each step. `npm run demo` prints them with DEMO_TIMINGS=1 for bench/demo-start.ts.
 */

export interface StartMark {
  phase: string;
  /** Milliseconds since the process started. */
  wallMs: number;
  /** CPU time (user + system, every thread) the process had used by then, in milliseconds. */
  cpuMs: number;
}

const marks: StartMark[] = [];

export function markStart(phase: string): void {
  const { user, system } = process.cpuUsage();
  marks.push({ phase, wallMs: Math.round(performance.now()), cpuMs: Math.round((user + system) / 1000) });
}

/** The marks so far, oldest first. */
export function startMarks(): readonly StartMark[] {
  return marks;
}
