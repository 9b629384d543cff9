/**
 * A worker's loop: `pass` at once, then `pollMs` after each pass ends (passes never overlap); a
 * failed pass is handed to `onError` and the loop goes on. `stop` ends it and waits for the pass
 * under way. `stopping()` tells a long pass to finish early.
 */
export function createPollingLoop(pass: () => Promise<unknown>, pollMs: number, onError: (reason: string) => void) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  return {
    stopping: () => stopped,
    start() {
      const loop = () => {
        running = pass()
          .then(() => undefined)
          .catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)))
          .finally(() => {
            if (!stopped) timer = setTimeout(loop, pollMs);
          });
      };
      timer = setTimeout(loop, 0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
