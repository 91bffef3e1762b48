/**
 * Certificates and share images on real PostgreSQL: who may download a
 * certificate (401/403/404), not before the late-entry deadline (409), the PDF's code verifying
 * publicly with the figures of the read models, forged and mistyped codes refused with no name,
 * an erased participant's code no longer verifying any name; the share image and the team-progress
 * page public with their Open Graph tags.
 */
import type {} from '@fastify/jwt'; // brings app.jwt's type (authPlugin registers the plugin)
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { certificateCode } from '@sinilill/certificates';
import { AccountDirectory, CommandService, type CommandRequest } from '@sinilill/commands';
import type { CertificateAnswer, SessionClaims } from '@sinilill/contracts';
import type { ActingUser } from '@sinilill/domain';
import { PersonalDataVault } from '@sinilill/event-store';
import { buildQueryApi } from '@sinilill/query-api';
import { streamIndexOn, testApplication, type TestApplication } from '../support/app';
import { testSessions, type TestSessions } from '../support/sessions';

const SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
const SYSTEM: ActingUser = { userId: null, role: 'SYSTEM', participantId: null, teamId: null };
const ADMIN_ID = '0b6f4c1e-6a0e-4c36-9a53-3f1f0b6a9c01';
/** During the event, the last minute of the late-entry day (Tallinn: UTC+3), and after it. */
const DURING = new Date('2025-04-20T10:00:00Z');
const LAST_MINUTE = new Date('2025-05-03T20:59:00Z');
const AFTER = new Date('2025-05-10T10:00:00Z');

describe('certificates and share images', () => {
  let app: TestApplication;
  let commands: CommandService;
  let sessions: TestSessions;
  let api: FastifyInstance;
  let clock = DURING;
  let serial = 0;
  const people: Record<'mari' | 'kati' | 'jyri', { participantId: number; userId: string; teamId: number; fullName: string }> = {} as never;
  let teamA = 0;
  let teamB = 0;

  const request = (actor: ActingUser): CommandRequest => {
    const id = `certificates-${++serial}`;
    return { actor, metadata: { commandId: id, correlationId: id, causationId: null }, now: DURING };
  };
  const claimsOf = (who: keyof typeof people): SessionClaims => {
    const p = people[who];
    return { userId: p.userId, fullName: p.fullName, is_approved: true, participantId: p.participantId, teamId: p.teamId, role: 'USER', isPaid: true };
  };
  const adminClaims: SessionClaims = { userId: ADMIN_ID, fullName: 'Admin', is_approved: true, participantId: null, teamId: null, role: 'ADMIN', isPaid: false };
  const bearer = (claims: SessionClaims) => sessions.bearer(api, claims);
  const get = (url: string, authorization?: string) => api.inject({ url, headers: authorization ? { authorization } : {} });

  beforeAll(async () => {
    app = await testApplication({ now: () => DURING });
    const directory = new AccountDirectory({ pool: app.pool, indexSecret: 'test-index-secret-0123456789' });
    commands = new CommandService({
      store: app.store, ids: app.ids, now: () => DURING, directory, personalData: new PersonalDataVault({ pool: app.pool }), streamIndex: streamIndexOn(app.pool),
    });
    ({ teamId: teamA } = await commands.registerTeam({ teamName: 'Tartu Tammed', description: '', joinCode: 'CERT1111', icon: null }, request(SYSTEM)));
    ({ teamId: teamB } = await commands.registerTeam({ teamName: 'Pärnu Pääsukesed', description: '', joinCode: 'CERT2222', icon: null }, request(SYSTEM)));
    const register = async (who: keyof typeof people, teamId: number, fullName: string, isCaptain: boolean) => {
      const email = `${who}@example.ee`;
      const { participantId } = await commands.registerParticipant({ teamId, fullName, email, birthYear: 1980, gender: 'FEMALE', isCaptain, newsletter: false }, request(SYSTEM));
      people[who] = { participantId, userId: (await directory.userIdOfEmail(email))!, teamId, fullName };
    };
    await register('mari', teamA, 'Mari Maasikas', true);
    await register('kati', teamA, 'Kati Karu', false);
    await register('jyri', teamB, 'Jüri Juurikas', true);
    const add = (who: keyof typeof people, distance: number) =>
      commands.addEntry({ participantId: people[who].participantId, distance, entryType: 'WALK', performedAt: '2025-04-10' }, request(SYSTEM));
    // Team A: 12.34 + 5.55 (Mari) + 10.00 (Kati) = 27.89 km → 28 km: missions ending at 7 and 27 done, 3 flowers.
    await add('mari', 12.34);
    await add('mari', 5.55);
    await add('kati', 10);
    await add('jyri', 3);
    sessions = testSessions(app, { now: () => DURING });
    await sessions.enrol(claimsOf('mari'), claimsOf('kati'), claimsOf('jyri'), adminClaims);
    await app.project();
    api = buildQueryApi({
      db: app.db, now: () => clock, readYourWritesTimeoutMs: 3000, jwtSecret: SECRET, changes: { subscribe: () => () => undefined },
      publicUrl: 'https://sinilill.test',
    });
    await api.ready();
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await app?.close();
  });

  describe('who may download a certificate', () => {
    test('nobody without a session (401)', async () => {
      clock = AFTER;
      expect((await get(`/api/participant/${people.mari.participantId}/certificate.pdf`)).statusCode).toBe(401);
      expect((await get(`/api/team/${teamA}/certificate.pdf`)).statusCode).toBe(401);
    });

    test('not a member of another team, whether or not the participant exists (403)', async () => {
      clock = AFTER;
      const jyri = bearer(claimsOf('jyri'));
      for (const url of [`/api/participant/${people.mari.participantId}/certificate.pdf`, `/api/team/${teamA}/certificate.pdf`, '/api/participant/987654/certificate.pdf']) {
        const response = await get(url, jyri);
        expect([url, response.statusCode, response.json()]).toEqual([url, 403, { message: 'FORBIDDEN' }]);
      }
    });

    test('the participant, a teammate and an administrator (200, a PDF); an administrator gets 404 for an unknown one', async () => {
      clock = AFTER;
      for (const who of [bearer(claimsOf('mari')), bearer(claimsOf('kati')), bearer(adminClaims)]) {
        const response = await get(`/api/participant/${people.mari.participantId}/certificate.pdf`, who);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        expect(response.headers['cache-control']).toBe('private, no-store');
        expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      }
      expect((await get(`/api/team/${teamA}/certificate.pdf`, bearer(claimsOf('kati')))).statusCode).toBe(200);
      expect((await get('/api/participant/987654/certificate.pdf', bearer(adminClaims))).json()).toEqual({ message: 'NOT_FOUND' });
      expect((await get('/api/team/987654/certificate.pdf', bearer(adminClaims))).statusCode).toBe(404);
    });

    test('not while entries may still be added: during the event and on the late-entry day until midnight (409)', async () => {
      for (const at of [DURING, LAST_MINUTE]) {
        clock = at;
        const response = await get(`/api/participant/${people.mari.participantId}/certificate.pdf`, bearer(claimsOf('mari')));
        expect([at.toISOString(), response.statusCode, response.json()]).toEqual([at.toISOString(), 409, { message: 'CERTIFICATE_NOT_AVAILABLE_YET' }]);
        expect((await get(`/api/team/${teamA}/certificate.pdf`, bearer(claimsOf('mari')))).statusCode).toBe(409);
      }
      clock = AFTER;
    });
  });

  /** The code in a downloaded certificate (its subject: "Sinilill certificate <code>"). */
  const codeInPdf = async (url: string, authorization: string) => {
    clock = AFTER;
    const response = await get(url, authorization);
    expect(response.statusCode).toBe(200);
    const doc = await PDFDocument.load(response.rawPayload);
    const code = /^Sinilill certificate (\S+)$/.exec(doc.getSubject() ?? '')?.[1];
    expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(doc.getKeywords()).toContain(`https://sinilill.test/verify/${code}`);
    return { code: code!, title: doc.getTitle() };
  };

  describe('verifying a code', () => {
    test('a participant\'s certificate verifies publicly with the figures from the read models', async () => {
      const { code, title } = await codeInPdf(`/api/participant/${people.mari.participantId}/certificate.pdf`, bearer(claimsOf('kati')));
      expect(title).toBe('Sinilill 2025 – Mari Maasikas');
      const response = await get(`/api/certificates/${code}`);
      expect(response.statusCode).toBe(200);
      expect(response.json<CertificateAnswer>()).toEqual({
        code, kind: 'participant', name: 'Mari Maasikas', team_name: 'Tartu Tammed', distance: 17.89, blueFlowers: 3, missions: 2,
        edition: { year: 2025, startDate: '2025-04-01', endDate: '2025-04-30' },
      });
      // Typed by hand from paper: lower case, spaces.
      expect((await get(`/api/certificates/${encodeURIComponent(code.toLowerCase().replace(/-/g, ' '))}`)).json<CertificateAnswer>().name).toBe('Mari Maasikas');
    });

    test('a team\'s certificate verifies with the team\'s km', async () => {
      const { code } = await codeInPdf(`/api/team/${teamA}/certificate.pdf`, bearer(adminClaims));
      expect((await get(`/api/certificates/${code}`)).json()).toMatchObject({ kind: 'team', name: 'Tartu Tammed', distance: 27.89, blueFlowers: 3, missions: 2 });
    });

    test('forged, mistyped and malformed codes are refused with no name (404 CERTIFICATE_NOT_VALID)', async () => {
      const { code } = await codeInPdf(`/api/participant/${people.mari.participantId}/certificate.pdf`, bearer(claimsOf('mari')));
      const last = code.at(-1) === 'Z' ? 'Y' : 'Z';
      // Genuinely signed, but for another edition (the read models hold 2025's figures only), or
      // under another secret.
      const otherEdition = certificateCode({ kind: 'participant', id: people.mari.participantId, edition: 2024 }, SECRET);
      const otherSecret = certificateCode({ kind: 'participant', id: people.mari.participantId, edition: 2025 }, `${SECRET}-other`);
      for (const bad of [`${code.slice(0, -1)}${last}`, code.replace(/-/g, '').split('').reverse().join(''), 'nonsense', '0000-0000-0000-0000', otherEdition, otherSecret]) {
        const response = await get(`/api/certificates/${encodeURIComponent(bad)}`);
        expect([bad, response.statusCode, response.json()]).toEqual([bad, 404, { message: 'CERTIFICATE_NOT_VALID' }]);
        expect(response.body).not.toContain('Mari');
      }
    });

    test('an erased participant\'s code no longer verifies any name; the team\'s still does', async () => {
      const { code } = await codeInPdf(`/api/participant/${people.kati.participantId}/certificate.pdf`, bearer(claimsOf('kati')));
      const team = await codeInPdf(`/api/team/${teamA}/certificate.pdf`, bearer(claimsOf('kati')));
      expect((await get(`/api/certificates/${code}`)).json<CertificateAnswer>().name).toBe('Kati Karu');
      await commands.deleteUsers([people.kati.userId], request({ userId: ADMIN_ID, role: 'ADMIN', participantId: null, teamId: null }));
      await app.project();
      const response = await get(`/api/certificates/${code}`);
      expect([response.statusCode, response.json()]).toEqual([404, { message: 'CERTIFICATE_NOT_VALID' }]);
      expect(response.body).not.toContain('Kati');
      // The team keeps her 10 km: a person's deletion, by an administrator too, keeps the entries
      // (docs/decisions/0109, as the privacy page says).
      expect((await get(`/api/certificates/${team.code}`)).json()).toMatchObject({ kind: 'team', name: 'Tartu Tammed', distance: 27.89 });
    });
  });

  describe('sharing a team\'s progress', () => {
    test('the share image is a public 1200×630 PNG, revalidated by its ETag', async () => {
      const response = await get(`/api/team/${teamB}/share.png`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
      const again = await api.inject({ url: `/api/team/${teamB}/share.png`, headers: { 'if-none-match': String(response.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect((await get('/api/team/987654/share.png')).json()).toEqual({ message: 'NOT_FOUND' });
    });

    test('the team-progress page carries its Open Graph tags, the image by its absolute address, in both languages', async () => {
      for (const lang of ['et', 'en'] as const) {
        const response = await get(`/api/share/team/${teamB}?lang=${lang}`);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers['content-security-policy']).toMatch(/^default-src 'none'/);
        const html = response.body;
        expect(html).toContain(`<html lang="${lang}">`);
        expect(html).toContain('<meta property="og:title" content="Pärnu Pääsukesed – Sinilill">');
        const image = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1]?.replace(/&amp;/g, '&');
        expect(image).toMatch(new RegExp(`^https://sinilill\\.test/api/team/${teamB}/share\\.png\\?lang=${lang}&v=`));
        expect((await get(image!.slice('https://sinilill.test'.length))).headers['content-type']).toBe('image/png');
        // No member's name: only what the public stats show.
        expect(html).not.toContain('Jüri');
      }
    });
  });
});
