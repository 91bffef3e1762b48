/**
 * The account mails: confirmation, password reset and the repeated-registration notice (spec §2,
 * §4, §7), and the invitation of a re-opened team's earlier members, in the language of the
 * request or of the person (`est` or `eng`).
 */
import type { SpecLanguage } from '@sinilill/domain';
import { withLang } from './links';
import type { OutgoingMail } from './mailer';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

interface MailLink { href: string; label: string; intro?: string }

/** Paragraphs, then each link as a button (with its address written out), then the closing line. */
function layout(paragraphs: string[], links: MailLink | MailLink[], closing: string): { text: string; html: string } {
  const all = Array.isArray(links) ? links : [links];
  const text = [...paragraphs, ...all.flatMap((link) => (link.intro ? [link.intro, link.href] : [link.href])), '', closing].join('\n\n');
  const html = `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1b2a41">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${all.map((link) => `${link.intro ? `<p>${escapeHtml(link.intro)}</p>\n` : ''}<p><a href="${escapeHtml(link.href)}" style="background:#006edd;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="font-size: 13px; color: #555">${escapeHtml(link.href)}</p>`).join('\n')}
<p>${escapeHtml(closing)}</p>
</body></html>`;
  return { text, html };
}

/** The account confirmation mail in `lang` (link, with `?lang=`: {publicUrl}/confirm/account/{token}/{userId}). */
export function confirmationMail(to: { email: string; fullName: string }, confirmLink: string, lang: SpecLanguage): OutgoingMail {
  const link = withLang(confirmLink, lang);
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

/** The password reset mail in `lang` (link, with `?lang=`: {publicUrl}/passwordreset/{token}/{userId}). */
export function passwordResetMail(to: { email: string; fullName: string }, resetLink: string, lang: SpecLanguage, validHours: number): OutgoingMail {
  const link = withLang(resetLink, lang);
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

/**
 * The mail to an address that someone tried to register again (spec §7 /registerteam, /jointeam
 * answer a registered address as they answer a new one, so that nobody learns which addresses have
 * accounts): who it is for, that nothing was changed, a login link and a reset link valid for
 * `validHours` (to set the first password when `hasPassword` is false: the people imported from
 * an earlier edition). Links as given (`{publicUrl}/login`, `{publicUrl}/passwordreset/{token}/{userId}`)
 * with `?lang=`.
 */
export function registrationAttemptMail(
  to: { email: string; fullName: string },
  links: { login: string; reset: string },
  lang: SpecLanguage,
  options: { validHours: number; hasPassword: boolean },
): OutgoingMail {
  const login = withLang(links.login, lang);
  const reset = withLang(links.reset, lang);
  const { validHours, hasPassword } = options;
  const body =
    lang === 'est'
      ? layout(
          [
            `Tere, ${to.fullName}!`,
            'Keegi (loodetavasti sina) proovis registreeruda Sinilille liikumisüritusele selle e-posti aadressiga. Sellel aadressil on meil juba konto, nii et uut kontot ei loodud ja sinu andmeid ei muudetud.',
            hasPassword
              ? 'Kui mäletad oma parooli, logi sisse. Kui ei mäleta, saad alloleva lingi kaudu määrata uue parooli.'
              : 'Osalesid Sinilillel ka varem, aga sinu kontol pole veel parooli. Määra endale parool alloleva lingi kaudu ja logi siis sisse.',
            'Kui sa ei proovinud registreeruda, jäta see kiri tähelepanuta.',
          ],
          [
            { href: login, label: 'Logi sisse' },
            {
              href: reset,
              label: hasPassword ? 'Määran uue parooli' : 'Määran parooli',
              intro: `Parooli määramise link kehtib ${validHours} tundi ja ainult ühe korra.`,
            },
          ],
          'Sinilille meeskond',
        )
      : layout(
          [
            `Hello ${to.fullName},`,
            'Someone (hopefully you) tried to register for the Sinilill movement event with this email address. We already have an account for this address, so no new account was created and nothing was changed.',
            hasPassword
              ? 'If you remember your password, log in. If you do not, set a new password through the link below.'
              : 'You took part in Sinilill before, but your account has no password yet. Set your password through the link below, then log in.',
            'If it was not you, you can ignore this email.',
          ],
          [
            { href: login, label: 'Log in' },
            {
              href: reset,
              label: hasPassword ? 'Set a new password' : 'Set your password',
              intro: `The password link is valid for ${validHours} hours and can be used once.`,
            },
          ],
          'The Sinilill team',
        );
  return { to: to.email, subject: lang === 'est' ? 'Sinilille konto sellel aadressil on juba olemas' : 'You already have a Sinilill account', ...body };
}

/**
 * The invitation to a member of an earlier edition's team whose team was re-opened for a new
 * edition (POST /api/team/{id}/invite-returning), in `lang`: which team, which edition (its name in
 * the mail's language), the new team's join code, and a login link (`{publicUrl}/login`, with
 * `?lang=`): the person logs in with the account they have and joins with the code.
 */
export function returningInvitationMail(
  to: { email: string; fullName: string },
  invitation: { teamName: string; joinCode: string; edition: { et: string; en: string }; earlierEdition: { et: string; en: string }; login: string },
  lang: SpecLanguage,
): OutgoingMail {
  const login = withLang(invitation.login, lang);
  const { teamName, joinCode } = invitation;
  const body =
    lang === 'est'
      ? layout(
          [
            `Tere, ${to.fullName}!`,
            `Võistkond „${teamName}“, kellega osalesid üritusel ${invitation.earlierEdition.et}, on end kirja pannud ka üritusele ${invitation.edition.et} ja võistkonnakaaslased kutsuvad sind jälle kaasa lööma.`,
            `Logi sisse oma senise kontoga ja liitu võistkonnaga liitumiskoodiga ${joinCode}.`,
            'Kui sa seekord osaleda ei soovi, jäta see kiri tähelepanuta.',
          ],
          { href: login, label: 'Logi sisse' },
          'Sinilille meeskond',
        )
      : layout(
          [
            `Hello ${to.fullName},`,
            `The team “${teamName}”, with which you took part in ${invitation.earlierEdition.en}, has signed up for ${invitation.edition.en}, and your teammates invite you to take part again.`,
            `Log in with your existing account and join the team with the join code ${joinCode}.`,
            'If you do not wish to take part this time, you can ignore this email.',
          ],
          { href: login, label: 'Log in' },
          'The Sinilill team',
        );
  return {
    to: to.email,
    subject: lang === 'est' ? `Võistkond „${teamName}“ ootab sind: ${invitation.edition.et}` : `Your team “${teamName}” is back for ${invitation.edition.en}`,
    ...body,
  };
}
