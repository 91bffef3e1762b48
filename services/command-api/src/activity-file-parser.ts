/**
 * Reads activity files off the event loop (issue 19 item 1): each file is read by
 * @sinilill/activity-files in a worker thread of its own (activity-file-worker.ts), one at a time
 * per process, with its own heap limit (ACTIVITY_FILE_HEAP_MB). A GPX or TCX is parsed into a whole
 * XML document, about 70 bytes of memory per byte of file (a 17 MB GPX took 6 s and 1 GB on the
 * main thread): in a worker the API keeps answering meanwhile, a file too large for the limit ends
 * only its worker (ACTIVITY_FILE_TOO_LARGE), and the memory goes back when the worker ends.
 *
 * The worker's file sits next to this module: `dist/activity-file-worker.js` in the bundled
 * service (infra/build/build.ts compiles it as an entry of its own), the `.ts` source under tsx
 * or vitest (run with tsx's loader).
 */
import { Worker } from 'node:worker_threads';
import type { ActivityFileProposal } from '@sinilill/activity-files';
import { DomainError, ERROR_CODES, type ErrorCode } from '@sinilill/domain';

/**
 * Heap of one reading worker by default, MB (ACTIVITY_FILE_HEAP_MB): a GPX or TCX of about 6 MB;
 * a larger one outgrows it and is refused as ACTIVITY_FILE_TOO_LARGE (FIT files need little).
 */
export const ACTIVITY_FILE_WORKER_HEAP_MB = 512;

/** Files waiting for the reading worker at most; more answer SERVICE_UNAVAILABLE (503, try again). */
export const ACTIVITY_FILE_QUEUE_LIMIT = 16;

const bundled = import.meta.url.endsWith('.js');
const workerUrl = new URL(bundled ? './activity-file-worker.js' : './activity-file-worker.ts', import.meta.url);

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
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, {
      workerData: { bytes, fileName },
      execArgv: bundled ? [] : ['--import', 'tsx'],
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
    });
    let answered = false;
    worker.once('message', (message: { proposal?: ActivityFileProposal; error?: { code: string; message: string } }) => {
      answered = true;
      if (message.proposal) resolve(message.proposal);
      else {
        const code = (ERROR_CODES as readonly string[]).includes(message.error!.code) ? message.error!.code as ErrorCode : 'GENERIC_ERROR';
        reject(code === 'GENERIC_ERROR' ? new Error(message.error!.message) : new DomainError(code, message.error!.message));
      }
    });
    worker.once('error', (error: Error & { code?: string }) => {
      answered = true;
      reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new DomainError('ACTIVITY_FILE_TOO_LARGE', `reading ${fileName} needs more than ${heapMb} MB`)
        : error);
    });
    worker.once('exit', (exitCode) => {
      if (!answered) reject(new Error(`the activity file worker ended (exit ${exitCode}) without an answer`));
    });
  });
}

/**
 * The proposal of one activity file, read in a worker thread with a heap of `heapMb` MB (module docs).
 * @throws DomainError with the activity-file codes of readActivityFile (ACTIVITY_FILE_TOO_LARGE
 *   also when the file's document outgrows the worker's heap), SERVICE_UNAVAILABLE when more than
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
