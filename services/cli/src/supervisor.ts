/**
 * The launcher's supervisor ("the site heals itself"): each service is its own
 * process; when one exits without being asked to, it is started again after a back-off
 * (restartDelay) while the others keep serving. A service that stayed up for a minute starts
 * its back-off afresh. `stop()` ends them all with SIGTERM, and SIGKILL after `killAfterMs`.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/** How a supervised process is started. */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  options: SpawnOptions;
  /** Called with each new child (to pipe its output). */
  onStart?: (child: ChildProcess) => void;
}

/** Back-off before restart number `restarts` (0-based), ms: 500 ms doubling, at most 15 s. */
export function restartDelay(restarts: number): number {
  return Math.min(15_000, 500 * 2 ** Math.min(restarts, 10));
}

/** A run this long (ms) counts as healthy: the next crash restarts after the shortest delay. */
export const STABLE_AFTER_MS = 60_000;

interface Supervised {
  spec: ProcessSpec;
  child: ChildProcess | null;
  restarts: number;
  startedAt: number;
  timer: NodeJS.Timeout | null;
}

export class Supervisor {
  private readonly processes: Supervised[] = [];
  private stopping = false;

  constructor(private readonly options: { log: (line: string) => void; killAfterMs: number; now?: () => number }) {}

  /** Starts `spec` and keeps it running until stop(). */
  add(spec: ProcessSpec): void {
    const supervised: Supervised = { spec, child: null, restarts: 0, startedAt: 0, timer: null };
    this.processes.push(supervised);
    this.launch(supervised);
  }

  /** Ends every process: SIGTERM, SIGKILL after killAfterMs; resolves when all have exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.processes.map(async (supervised) => {
      if (supervised.timer) clearTimeout(supervised.timer);
      const child = supervised.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), this.options.killAfterMs).unref();
      });
    }));
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private launch(supervised: Supervised): void {
    const { spec } = supervised;
    const child = spawn(spec.command, spec.args, spec.options);
    supervised.child = child;
    supervised.startedAt = this.now();
    spec.onStart?.(child);
    child.once('error', (error) => this.options.log(`${spec.name} could not start: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      supervised.child = null;
      if (this.now() - supervised.startedAt >= STABLE_AFTER_MS) supervised.restarts = 0;
      const delay = restartDelay(supervised.restarts);
      supervised.restarts += 1;
      this.options.log(`${spec.name} exited (${code ?? signal}); restarting in ${(delay / 1000).toFixed(1)} s (restart ${supervised.restarts})`);
      supervised.timer = setTimeout(() => {
        supervised.timer = null;
        if (!this.stopping) this.launch(supervised);
      }, delay);
    });
  }
}
