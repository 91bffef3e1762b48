/**
 * A real SMTP server for integration tests: MailDev 2's mail server (the same one `npm start`
 * runs as the local inbox), started in the test process on a free port, without its web UI and
 * without its CLI's signal handlers. Mail sent with `smtpMailer({ url: smtpUrl, … })` arrives in
 * `inbox()`.
 *
 * MailDev keeps one mail server per process (a module singleton): start at most one per test
 * file (vitest runs each file in its own worker).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A mail as MailDev parsed it (the fields the tests read). */
export interface ReceivedMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string; name: string }[];
  from: { address: string; name: string }[];
  time: Date;
}

export interface RunningMailDev {
  /** smtp://127.0.0.1:<port> for nodemailer. */
  smtpUrl: string;
  /** Every mail received so far, oldest first. */
  inbox(): Promise<ReceivedMail[]>;
  /**
   * The first mail (received so far or arriving within `timeoutMs`, default 10 s) to `to` whose
   * subject contains `subjectPart`, not counting the first `skip` such mails.
   */
  waitForMail(to: string, subjectPart: string, options?: { timeoutMs?: number; skip?: number }): Promise<ReceivedMail>;
  /** How many received mails are to `to` and have `subjectPart` in the subject. */
  count(to: string, subjectPart: string): Promise<number>;
  close(): Promise<void>;
}

interface MailServer {
  create(port: number, host: string, mailDir: string): void;
  listen(callback: (error?: Error) => void): unknown;
  close(callback: (error?: Error) => void): void;
  getAllEmail(done: (error: Error | null, mails: ReceivedMail[]) => void): void;
  on(event: 'new', listener: (mail: ReceivedMail) => void): void;
  removeListener(event: 'new', listener: (mail: ReceivedMail) => void): void;
  port: number;
  smtp: { server: Server };
}

const require = createRequire(import.meta.url);
let running = false;

/** Starts MailDev's SMTP server on 127.0.0.1 and a free port. */
export async function startMailDev(): Promise<RunningMailDev> {
  if (running) throw new Error('startMailDev: MailDev is a singleton per process; close the running one first');
  running = true;
  (require('maildev/lib/logger') as { setLevel(level: number): void }).setLevel(0);
  const server = require('maildev/lib/mailserver') as MailServer;
  const mailDir = mkdtempSync(join(tmpdir(), 'maildev-test-'));
  server.create(1, '127.0.0.1', mailDir);
  server.port = 0; // create() turns 0 into its default 1025; set it afterwards: the OS picks a free port
  await new Promise<void>((resolve, reject) => {
    server.listen((error) => (error ? reject(error) : resolve()));
  });
  const port = (server.smtp.server.address() as AddressInfo).port;

  const inbox = () => new Promise<ReceivedMail[]>((resolve, reject) => {
    server.getAllEmail((error, mails) => (error ? reject(error) : resolve([...mails])));
  });
  const matches = (to: string, subjectPart: string) => (mail: ReceivedMail) =>
    mail.to.some((recipient) => recipient.address.toLowerCase() === to.toLowerCase()) && mail.subject.includes(subjectPart);

  return {
    smtpUrl: `smtp://127.0.0.1:${port}`,
    inbox,
    async count(to, subjectPart) {
      return (await inbox()).filter(matches(to, subjectPart)).length;
    },
    waitForMail(to, subjectPart, options = {}) {
      const skip = options.skip ?? 0;
      const timeoutMs = options.timeoutMs ?? 10_000;
      const wanted = matches(to, subjectPart);
      return new Promise<ReceivedMail>((resolve, reject) => {
        // Listen first, then look at what is there: a mail arriving in between is not missed.
        const check = () => {
          void inbox().then((mails) => {
            const found = mails.filter(wanted)[skip];
            if (found) finish(() => resolve(found));
          }, (error: unknown) => finish(() => reject(error as Error)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no mail to ${to} with "${subjectPart}" (#${skip + 1}) within ${timeoutMs} ms`))), timeoutMs);
        let finished = false;
        function finish(settle: () => void) {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          server.removeListener('new', check);
          settle();
        }
        server.on('new', check);
        check();
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(mailDir, { recursive: true, force: true });
      running = false;
    },
  };
}
