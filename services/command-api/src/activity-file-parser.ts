/**
 * Reads activity files off the event loop: each file is read by @sinilill/activity-files in a
 * child process of its own (activity-file-worker.ts), one at a time per command API process, with
 * its own heap limit (ACTIVITY_FILE_HEAP_MB, as --max-old-space-size). GPX and TCX are streamed
 * (a 19 MB GPX in about 2 s, under 150 MB of the child's memory: docs/decisions/0092), but a FIT
 * is decoded whole by the FIT SDK (a 5 MB FIT: about 200 MB) and any reading
 * takes CPU: apart, the API keeps answering meanwhile, a file too large for the limit ends only its
 * reader (ACTIVITY_FILE_TOO_LARGE), and the memory goes back when the reader ends.
 *
 * A process, not a worker thread: a worker's resourceLimits are best-effort, and a worker that
 * runs out of heap can abort the whole process (nodejs/node#47224, #65019); one did abort the
 * integration suite's process here with SIGABRT on a 64 MB heap. An aborted child costs one file.
 *
 * The reader's file sits next to this module: `dist/activity-file-worker.js` in the bundled
 * service (infra/build/build.ts compiles it as an entry of its own), the `.ts` source under tsx
 * or vitest (run with tsx's loader).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ActivityFileProposal } from '@sinilill/activity-files';
import { DomainError, ERROR_CODES, type ErrorCode } from '@sinilill/domain';

/**
 * Heap of one reading worker by default, MB (ACTIVITY_FILE_HEAP_MB): a limit, not a reservation.
 * Any GPX or TCX under the upload limit needs far less (streamed); a FIT is decoded whole: one of
 * 5 MB (300 000 records) peaked at 198 MB of the child's memory, so a FIT of many times that
 * outgrows this heap and is refused as ACTIVITY_FILE_TOO_LARGE.
 */
export const ACTIVITY_FILE_WORKER_HEAP_MB = 512;

/** Files waiting for the reading worker at most; more answer SERVICE_UNAVAILABLE (503, try again). */
export const ACTIVITY_FILE_QUEUE_LIMIT = 16;

const bundled = import.meta.url.endsWith('.js');
const workerPath = fileURLToPath(new URL(bundled ? './activity-file-worker.js' : './activity-file-worker.ts', import.meta.url));

/** What V8 writes to stderr when a heap runs out (the reader then aborts). */
const OUT_OF_MEMORY = /heap out of memory|Allocation failed|Reached heap limit/i;

/** The last bytes of the reader's stderr kept for the error message, at most. */
const STDERR_KEPT = 4096;

/** How one file was read: for the operators' figures and the upload bench (tests/bench/uploads.ts). */
export interface ActivityFileReading {
  /** The file's size, bytes. */
  bytes: number;
  /** From the reader's start to its answer, ms. */
  ms: number;
  /** The reading child's peak resident memory, bytes (its getrusage maxrss); null when it answered none (it died). */
  readerPeakRssBytes: number | null;
  /** Whether it answered a proposal (else a refusal or a crash). */
  ok: boolean;
}

const readingListeners = new Set<(reading: ActivityFileReading) => void>();

/** Calls `listener` after each file this process reads. @returns a function that stops it. */
export function onActivityFileRead(listener: (reading: ActivityFileReading) => void): () => void {
  readingListeners.add(listener);
  return () => { readingListeners.delete(listener); };
}

let running = false;
const waiting: (() => void)[] = [];

/** Resolves when it is the caller's turn to read (one file at a time per process). */
async function turn(): Promise<void> {
  if (!running) {
    running = true;
    return;
  }
  if (waiting.length >= ACTIVITY_FILE_QUEUE_LIMIT) throw new DomainError('SERVICE_UNAVAILABLE', 'too many activity files are being read');
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function done(): void {
  const next = waiting.shift();
  if (next) next();
  else running = false;
}

function readInWorker(bytes: Uint8Array, fileName: string, heapMb: number): Promise<ActivityFileProposal> {
  const started = performance.now();
  let peakRssBytes: number | null = null;
  const report = (ok: boolean) => {
    const reading = { bytes: bytes.length, ms: performance.now() - started, readerPeakRssBytes: peakRssBytes, ok };
    for (const listener of readingListeners) listener(reading);
  };
  return new Promise<ActivityFileProposal>((resolve, reject) => {
    const child = fork(workerPath, [], {
      execArgv: [...(bundled ? [] : ['--import', 'tsx']), `--max-old-space-size=${heapMb}`],
      // Structured clone: the file's bytes travel as a Uint8Array, not as JSON.
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let answered = false;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT); });
    child.once('message', (message: { proposal?: ActivityFileProposal; error?: { code: string; message: string }; peakRssBytes?: number }) => {
      answered = true;
      peakRssBytes = message.peakRssBytes ?? null;
      if (message.proposal) resolve(message.proposal);
      else {
        const code = (ERROR_CODES as readonly string[]).includes(message.error!.code) ? message.error!.code as ErrorCode : 'GENERIC_ERROR';
        reject(code === 'GENERIC_ERROR' ? new Error(message.error!.message) : new DomainError(code, message.error!.message));
      }
    });
    child.once('error', (error) => {
      if (answered) return;
      answered = true;
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      if (answered) return;
      answered = true;
      reject(OUT_OF_MEMORY.test(stderr)
        ? new DomainError('ACTIVITY_FILE_TOO_LARGE', `reading ${fileName} needs more than ${heapMb} MB`)
        : new Error(`the activity file reader ended (exit ${exitCode ?? signal}) without an answer: ${stderr.trim()}`));
    });
    child.send({ bytes, fileName });
  }).then((proposal) => { report(true); return proposal; }, (error: unknown) => { report(false); throw error; });
}

/**
 * The proposal of one activity file, read in a child process with a heap of `heapMb` MB (module docs).
 * @throws DomainError with the activity-file codes of readActivityFile (ACTIVITY_FILE_TOO_LARGE
 *   also when the file's document outgrows the reader's heap), SERVICE_UNAVAILABLE when more than
 *   ACTIVITY_FILE_QUEUE_LIMIT files wait.
 */
export async function readActivityFileOffThread(bytes: Uint8Array, fileName: string, heapMb = ACTIVITY_FILE_WORKER_HEAP_MB): Promise<ActivityFileProposal> {
  await turn();
  try {
    return await readInWorker(bytes, fileName, heapMb);
  } finally {
    done();
  }
}
