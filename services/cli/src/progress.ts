/** Progress bars for the operators' tools (cli-progress), quiet when output is not a terminal. */
import cliProgress from 'cli-progress';

export interface Bar {
  update(done: number, total: number, label: string): void;
  stop(): void;
}

/** A single-line bar on a terminal; on a pipe (CI, logs) one line per 10 % instead. */
export function progressBar(): Bar {
  if (!process.stdout.isTTY) {
    let lastTenth = -1;
    let lastLabel = '';
    return {
      update(done, total, label) {
        const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
        if (tenth !== lastTenth || label !== lastLabel) {
          lastTenth = tenth;
          lastLabel = label;
          console.log(`${label}: ${done}/${total}`);
        }
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: '{label} [{bar}] {percentage}% {value}/{total} {eta_formatted}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, label) {
      if (!started) { bar.start(total, done, { label }); started = true; }
      bar.setTotal(total);
      bar.update(done, { label });
    },
    stop() { if (started) bar.stop(); },
  };
}
