/** What both demos (single workspace and hosted) do at the terminal: print a line, and stop cleanly on Ctrl-C or SIGTERM. */
export function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** The first signal closes the demo (exit 0, or 1 when it does not close cleanly); a second one exits at once. */
export function stopOnSignals(demo: { close(): Promise<unknown> }): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    say(`\n${signal}: stopping the demo.`);
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('The demo did not stop cleanly:', error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
