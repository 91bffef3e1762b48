/**
 * The child process that reads one activity file (activity-file-parser.ts): its first IPC message
 * holds the file's bytes and name; it answers `{ proposal }` or `{ error: { code, message } }` with
 * the DomainError's catalogue code (anything else as GENERIC_ERROR), with its peak resident memory
 * (`peakRssBytes`, getrusage's maxrss), and ends. Reading takes CPU, and a FIT is decoded whole
 * in memory (about 200 MB for 5 MB), so it happens here, off the command API's event loop and
 * inside this process's own heap limit.
 */
import { readActivityFile } from '@sinilill/activity-files';
import { DomainError } from '@sinilill/domain';

process.once('message', (message: { bytes: Uint8Array; fileName: string }) => {
  let answer: object;
  try {
    answer = { proposal: readActivityFile(message.bytes, message.fileName) };
  } catch (error) {
    answer = {
      error: error instanceof DomainError
        ? { code: error.code, message: error.message }
        : { code: 'GENERIC_ERROR', message: error instanceof Error ? error.message : String(error) },
    };
  }
  // Ends once the answer is sent: the parent waits for nothing else.
  process.send!({ ...answer, peakRssBytes: process.resourceUsage().maxRSS * 1024 }, () => process.disconnect());
});
