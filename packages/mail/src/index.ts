/**
 * Outgoing mail: the account confirmation and password reset mails (spec §2, §4), in the
 * language of the request (`est` or `eng`), sent over SMTP with nodemailer. In the embedded
 * default the SMTP server is a local MailDev 2 (its inbox is a web page; the README names it);
 * with SMTP_URL any real SMTP server.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export type MailLang = 'est' | 'eng';

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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(paragraphs: string[], link: { href: string; label: string }, closing: string): { text: string; html: string } {
  const text = [...paragraphs, link.href, '', closing].join('\n\n');
  const html = `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1b2a41">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(link.href)}" style="background:#006edd;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size: 13px; color: #555">${escapeHtml(link.href)}</p>
<p>${escapeHtml(closing)}</p>
</body></html>`;
  return { text, html };
}

/** The account confirmation mail (link: {publicUrl}/confirm/account/{token}/{userId}). */
export function confirmationMail(to: { email: string; fullName: string }, link: string, lang: MailLang): OutgoingMail {
  const body =
    lang === 'est'
      ? layout(
          [`Tere, ${to.fullName}!`, 'Aitäh, et registreerusid Sinilille liikumisüritusele. Konto kinnitamiseks vajuta alloleval nupul.', 'Kui sa ei registreerunud, jäta see kiri tähelepanuta.'],
          { href: link, label: 'Kinnitan konto' },
          'Sinilille meeskond',
        )
      : layout(
          [`Hello ${to.fullName},`, 'Thank you for registering for the Sinilill movement event. Press the button below to confirm your account.', 'If you did not register, you can ignore this email.'],
          { href: link, label: 'Confirm my account' },
          'The Sinilill team',
        );
  return { to: to.email, subject: lang === 'est' ? 'Kinnita oma Sinilille konto' : 'Confirm your Sinilill account', ...body };
}

/** The password reset mail (link: {publicUrl}/passwordreset/{token}/{userId}). */
export function passwordResetMail(to: { email: string; fullName: string }, link: string, lang: MailLang, validHours: number): OutgoingMail {
  const body =
    lang === 'est'
      ? layout(
          [`Tere, ${to.fullName}!`, `Keegi (loodetavasti sina) soovis Sinilille kontole uut parooli. Uue parooli saad määrata alloleva lingi kaudu; link kehtib ${validHours} tundi ja ainult ühe korra.`, 'Kui sa parooli ei soovinud muuta, jäta see kiri tähelepanuta: sinu praegune parool jääb kehtima.'],
          { href: link, label: 'Määran uue parooli' },
          'Sinilille meeskond',
        )
      : layout(
          [`Hello ${to.fullName},`, `Someone (hopefully you) asked for a new password for your Sinilill account. Set a new password through the link below; it is valid for ${validHours} hours and can be used once.`, 'If you did not ask for this, ignore this email: your current password stays as it is.'],
          { href: link, label: 'Set a new password' },
          'The Sinilill team',
        );
  return { to: to.email, subject: lang === 'est' ? 'Sinilille parooli lähtestamine' : 'Reset your Sinilill password', ...body };
}

export { announcementMail, unsubscribeToken, verifyUnsubscribeToken, type AnnouncementContent } from './announcements';
