/**
 * The worker thread that reads one activity file (activity-file-parser.ts): `workerData` holds the
 * file's bytes and name; it posts back `{ proposal }` or `{ error: { code, message } }` with the
 * DomainError's catalogue code (anything else as GENERIC_ERROR), and ends. Reading a GPX or TCX
 * builds the whole XML document in memory (hundreds of MB for a 20 MB file), so it happens here,
 * off the command API's event loop and inside this thread's own heap limit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readActivityFile } from '@sinilill/activity-files';
import { DomainError } from '@sinilill/domain';

const { bytes, fileName } = workerData as { bytes: Uint8Array; fileName: string };
try {
  parentPort!.postMessage({ proposal: readActivityFile(bytes, fileName) });
} catch (error) {
  parentPort!.postMessage({
    error: error instanceof DomainError
      ? { code: error.code, message: error.message }
      : { code: 'GENERIC_ERROR', message: error instanceof Error ? error.message : String(error) },
  });
}
