/**
 * A service (or a fixture script) as its own Node process, as `npm start` runs it
 * (`node --import tsx <file>`), with its output collected and its exit observed, for tests of
 * what only a real process shows: signals, exit codes, the close of its sockets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@sinilill/config';
import { TEST_STACK_DEFAULTS } from './stack';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when the process exited, ms. */
  at: number;
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr interleaved). */
  output(): string;
  /** The JSON lines of the output (pino's log lines), others skipped. */
  logLines(): Record<string, unknown>[];
  /** Resolves when the process has exited. */
  exited: Promise<ProcessExit>;
  /** Sends `signal` and returns performance.now() at the time it was sent, ms. */
  signal(signal: NodeJS.Signals): number;
  /** SIGKILL if still running; resolves once it has exited. */
  kill(): Promise<void>;
}

/**
 * Spawns `process.execPath --import tsx <repoRoot>/<file> ...args` with `env` added to this
 * process's environment, over the test stacks' clock and demo (TEST_STACK_DEFAULTS: April 2025).
 */
export function spawnService(file: string, env: NodeJS.ProcessEnv, args: readonly string[] = []): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, file), ...args], {
    cwd: repoRoot, env: { ...process.env, ...TEST_STACK_DEFAULTS, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  return {
    child,
    output: () => output,
    logLines: () => output.split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    }),
    exited,
    signal(signal) {
      const at = performance.now();
      child.kill(signal);
      return at;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Polls `url` (e.g. …/health/ready) until it answers 200.
 * @throws Error with the process's output when it exits first or `timeoutMs` passes.
 */
export async function waitForOk(url: string, service: ServiceProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void service.exited.then(() => { exited = true; });
  for (;;) {
    if (exited) throw new Error(`the process exited before ${url} answered:\n${service.output()}`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 in ${timeoutMs} ms:\n${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
