/**
 * Announcements: the mail an administrator's announcement becomes for one
 * recipient, in the recipient's stored language (the account's `lang`, set at registration:
 * UserRegistered.lang), with a one-click unsubscribe link that works without logging in, and the
 * unsubscribe token that link carries.
 *
 * The token is `{participantId}.{mac}`: mac is the first 16 bytes (base64url) of
 * HMAC-SHA-256(key, "unsubscribe:{participantId}"), key = HKDF-SHA-256(JWT_SECRET, info
 * "sinilill unsubscribe link"). It never expires (a mail read a year later still unsubscribes);
 * forging one needs JWT_SECRET. It names only the participant id, so the link itself carries no
 * personal data.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { OutgoingMail } from './index';
import { withLang, type MailLang } from './links';

/** What the administrator wrote: a subject and a plain-text body in each language. */
export interface AnnouncementContent {
  subject_et: string;
  body_et: string;
  subject_en: string;
  body_en: string;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'sinilill', 'sinilill unsubscribe link', 32));
}

function macOf(key: Buffer, participantId: number): Buffer {
  return createHmac('sha256', key).update(`unsubscribe:${participantId}`).digest().subarray(0, 16);
}

/** The unsubscribe token of a participant (see the module's docstring). */
export function unsubscribeToken(secret: string, participantId: number): string {
  return `${participantId}.${macOf(keyOf(secret), participantId).toString('base64url')}`;
}

/** The participant id a token names, or null when the token is malformed or forged. */
export function verifyUnsubscribeToken(secret: string, token: string): number | null {
  const match = /^([1-9][0-9]{0,9})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const participantId = Number(match[1]);
  if (!Number.isSafeInteger(participantId)) return null;
  const given = Buffer.from(match[2]!, 'base64url');
  const expected = macOf(keyOf(secret), participantId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? participantId : null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * One recipient's announcement mail: the subject and body of `lang` (`est` → the Estonian text),
 * the body's paragraphs (blank-line separated) as text and escaped HTML, a footer with the
 * unsubscribe link (`links.page`, the public page, with `?lang=`), and the RFC 8058 headers: List-Unsubscribe
 * with `links.oneClick` (the address a mail client POSTs `List-Unsubscribe=One-Click` to; default
 * the page) and List-Unsubscribe-Post: List-Unsubscribe=One-Click.
 */
export function announcementMail(to: string, content: AnnouncementContent, lang: MailLang, links: { page: string; oneClick?: string }): OutgoingMail {
  // The page opens in the mail's language; the one-click address is for mail clients, not people.
  const unsubscribeUrl = withLang(links.page, lang);
  const subject = lang === 'est' ? content.subject_et : content.subject_en;
  const body = lang === 'est' ? content.body_et : content.body_en;
  const footer = lang === 'est'
    ? { why: 'Said selle kirja, sest oled Sinilille liikumisürituse osaleja.', label: 'Loobu uudiskirjast' }
    : { why: 'You are receiving this email because you take part in the Sinilill movement event.', label: 'Unsubscribe from the newsletter' };
  const paragraphs = body.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
  const text = [...paragraphs, '--', footer.why, `${footer.label}: ${unsubscribeUrl}`].join('\n\n');
  const html = `<!doctype html><html lang="${lang === 'est' ? 'et' : 'en'}"><body style="font-family: sans-serif; line-height: 1.5; color: #1b2a41">
${paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n')}
<hr>
<p style="font-size: 13px; color: #555">${escapeHtml(footer.why)} <a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(footer.label)}</a></p>
</body></html>`;
  return {
    to, subject, text, html,
    headers: { 'List-Unsubscribe': `<${links.oneClick ?? unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
