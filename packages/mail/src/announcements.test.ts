import { describe, expect, it } from 'vitest';
import { announcementMail, unsubscribeToken, verifyUnsubscribeToken } from './announcements';

const content = { subject_et: 'Tere, liikujad!', body_et: 'Esimene lõik.\n\nTeine <lõik>.', subject_en: 'Hello, movers!', body_en: 'First paragraph.\n\nSecond <paragraph>.' };

describe('unsubscribe token', () => {
  it('given a token made with the secret, when verified, then it names the participant', () => {
    expect(verifyUnsubscribeToken('secret-1', unsubscribeToken('secret-1', 42))).toBe(42);
  });
  it('given a token of another secret or another participant, when verified, then it is refused', () => {
    const token = unsubscribeToken('secret-1', 42);
    expect(verifyUnsubscribeToken('secret-2', token)).toBeNull();
    expect(verifyUnsubscribeToken('secret-1', token.replace(/^42\./, '43.'))).toBeNull();
    for (const bad of ['', '42', '42.', 'x.y', '0.AAAAAAAAAAAAAAAAAAAAAA', `${token}A`]) expect(verifyUnsubscribeToken('secret-1', bad)).toBeNull();
  });
});

describe('announcementMail', () => {
  it('given Estonian, then the Estonian subject and body, escaped, and the unsubscribe link and headers', () => {
    const mail = announcementMail('mari@example.ee', content, 'est', { page: 'https://sinilill.test/unsubscribe/1.abc', oneClick: 'https://sinilill.test/api/unsubscribe/1.abc' });
    expect(mail.subject).toBe('Tere, liikujad!');
    expect(mail.text).toContain('Esimene lõik.\n\nTeine <lõik>.');
    expect(mail.text).toContain('Loobu uudiskirjast: https://sinilill.test/unsubscribe/1.abc?lang=est');
    expect(mail.html).toContain('<p>Teine &lt;lõik&gt;.</p>');
    expect(mail.html).not.toContain('First');
    expect(mail.headers).toEqual({ 'List-Unsubscribe': '<https://sinilill.test/api/unsubscribe/1.abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });
  it('given English, then the English subject and body', () => {
    const mail = announcementMail('john@example.com', content, 'eng', { page: 'https://sinilill.test/unsubscribe/1.abc' });
    expect(mail.subject).toBe('Hello, movers!');
    expect(mail.text).toContain('Unsubscribe from the newsletter: https://sinilill.test/unsubscribe/1.abc?lang=eng');
    expect(mail.html).not.toContain('Esimene');
  });
});
