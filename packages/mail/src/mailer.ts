/**
 * The mail every sender hands over (OutgoingMail) and the sender itself (Mailer), sent over SMTP
 * with nodemailer. In the embedded default the SMTP server is a local MailDev 2 (its inbox is a web
 * page; the README names it); with SMTP_URL any real SMTP server.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header lines (List-Unsubscribe and List-Unsubscribe-Post of announcements, RFC 8058). */
  headers?: Record<string, string>;
}

/** Sends mail; the account commands depend on this, not on nodemailer. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** A Mailer over SMTP (`smtp://host:port` or `smtps://user:pass@host:465`). */
export function smtpMailer(options: { url: string; from: string }): Mailer {
  const transport: Transporter = nodemailer.createTransport(options.url);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
    close() {
      transport.close();
    },
  };
}
