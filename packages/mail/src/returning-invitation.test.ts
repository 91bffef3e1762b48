import { describe, expect, it } from 'vitest';
import { returningInvitationMail } from './account-mails';

const invitation = {
  teamName: 'Tartu <Tammed>', joinCode: 'K7QX2M9P', edition: { et: 'Sinilill 2026', en: 'Sinilill 2026 (EN)' },
  earlierEdition: { et: 'Sinilill 2025', en: 'Sinilill 2025 (EN)' }, login: 'http://sinilill.test/login',
};

describe('returningInvitationMail', () => {
  it('is written in Estonian for est: the edition names in Estonian, the code, a login link opening in Estonian', () => {
    const mail = returningInvitationMail({ email: 'toomas@example.ee', fullName: 'Toomas Tamm' }, invitation, 'est');
    expect(mail.to).toBe('toomas@example.ee');
    expect(mail.subject).toBe('Võistkond „Tartu <Tammed>“ ootab sind: Sinilill 2026');
    expect(mail.text).toContain('Tere, Toomas Tamm!');
    expect(mail.text).toContain('üritusel Sinilill 2025');
    expect(mail.text).toContain('liitumiskoodiga K7QX2M9P');
    expect(mail.text).toContain('http://sinilill.test/login?lang=est');
    expect(mail.text).not.toContain('(EN)');
  });

  it('is written in English for eng, with the English edition names and a link opening in English', () => {
    const mail = returningInvitationMail({ email: 'anu@example.ee', fullName: 'Anu Aas' }, invitation, 'eng');
    expect(mail.subject).toBe('Your team “Tartu <Tammed>” is back for Sinilill 2026 (EN)');
    expect(mail.text).toContain('Hello Anu Aas,');
    expect(mail.text).toContain('in Sinilill 2025 (EN)');
    expect(mail.text).toContain('join code K7QX2M9P');
    expect(mail.text).toContain('http://sinilill.test/login?lang=eng');
  });

  it('escapes the team’s name in the HTML part', () => {
    const mail = returningInvitationMail({ email: 'anu@example.ee', fullName: 'Anu Aas' }, invitation, 'eng');
    expect(mail.html).toContain('Tartu &lt;Tammed&gt;');
    expect(mail.html).not.toContain('<Tammed>');
  });
});
