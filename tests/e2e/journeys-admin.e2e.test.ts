/**
 * The administrator's console as an administrator walks it, in Estonian and English, at the
 * width where each rough edge was found (one stack at 20 April 2025, the 2025 export imported):
 *
 * - the review queue on a 360 px phone: one readable card per flagged entry (nothing cut at the
 *   edge, the reason in full, a card of sensible height) that approves and rejects; on a 1440 px
 *   desktop its headers stand apart;
 * - announcements (1440 px): the recipients counted by the server before sending, a preview of
 *   the mail, a test sent only to the administrator, and a confirmation that names the count;
 * - the users table (1440 px) fits without sideways scrolling, and its paid and approved ticks
 *   ask first, naming the person and the consequence;
 * - the history (1440 px) lists the newest event first, jumps to a page, and labels the changed
 *   fields in words.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { EntryAnswer, ReviewQueueAnswer } from '@sinilill/contracts';
import { repoRoot } from '@sinilill/config';
import { fixturePeople } from '../support/app';
import { launchBrowser } from '../support/browser';
import { e2eKit, type Lang } from '../support/e2e-kit';
import { eventually, type RunningStack } from '../support/stack';
import { E2E_ADMIN, sharedStack, E2E_STACKS } from '../support/shared-stack';

let stack: RunningStack;
let browser: Browser;
const kit = e2eKit(() => stack, () => browser);
const ADMIN = E2E_ADMIN;
const PARTICIPANT_PASSWORD = 'Sinilill liige 2025 parool!';
const PHONE = 360;
const DESKTOP = 1440;
const people = fixturePeople();
const artifacts = join(repoRoot, 'test-results');

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** axe-core's serious and critical violations (WCAG 2.0–2.2 A/AA), as layout.e2e.test.ts checks them. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).setLegacyMode(true).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    sharedStack(E2E_STACKS.april20),
    launchBrowser(),
  ]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function api<T>(path: string, token: string | null, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}/api${path}`, {
    ...init,
    headers: { ...(token ? { authorization: token } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}), ...(init.headers ?? {}) },
  });
  return { status: response.status, body: await response.json().catch(() => null) as T };
}

async function tokenFor(email: string, password: string): Promise<string> {
  const login = await api<{ token: string }>('/login', null, { method: 'POST', body: JSON.stringify({ email, password }) });
  expect(login.status).toBe(200);
  return `Bearer ${login.body.token}`;
}

/** The administrator's token, logged in once: logins are rate limited, and the tests poll. */
let adminBearer: Promise<string> | undefined;
const adminToken = () => (adminBearer ??= tokenFor(ADMIN.email, ADMIN.password));

/** The account id of a fixture participant, from the event store. */
async function userIdOf(participantId: number): Promise<string> {
  return kit.withDatabase(async (db) => {
    const found = await db.query<{ user_id: string }>(
      "SELECT data->>'userId' AS user_id FROM es.events WHERE type = 'UserRegistered' AND (data->>'participantId')::int = $1", [participantId]);
    return found.rows[0]!.user_id;
  });
}

/** An admin page in `lang`, `width` px wide, logged in, on the console tab `tab`. */
async function adminPage(lang: Lang, width: number, tab: string): Promise<Page> {
  const { page } = await kit.newPage(lang, width);
  await kit.login(page, ADMIN.email, ADMIN.password);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await page.goto(`${stack.baseUrl}/admin?tab=${tab}`);
  return page;
}

/** A fixture participant's token, after the administrator set their password. */
async function participantToken(person: (typeof people)[number]): Promise<string> {
  const reset = await api('/admin/resetpassword', await adminToken(), { method: 'POST', body: JSON.stringify({ userId: await userIdOf(person.id), newPassword: PARTICIPANT_PASSWORD }) });
  expect(reset.status).toBe(200);
  return tokenFor(person.email, PARTICIPANT_PASSWORD);
}

/**
 * A walk of 70 km (a walk may have at most 60) logged by `person` through the API: moderation flags
 * it. The person's password is set by the administrator first. Answers the entry's id.
 */
async function flaggedEntry(person: (typeof people)[number]): Promise<number> {
  const token = await participantToken(person);
  const added = await api<EntryAnswer>('/entry', token, { method: 'POST', body: JSON.stringify({ distance: 70, entry_type: 'WALK', performed_at: '2025-04-19' }) });
  expect(added.status).toBe(200);
  return added.body.entry.id;
}

/** The review status of an entry as the query API answers it (null while not in the queue's pages read). */
async function reviewStatus(teamId: number, entryId: number): Promise<string | null> {
  const token = await adminToken();
  for (const status of ['flagged', 'approved', 'rejected']) {
    const page = await api<ReviewQueueAnswer>(`/admin/review?status=${status}&team_id=${teamId}`, token);
    if (page.body.rows.some((r) => r.entry_id === entryId)) return status;
  }
  return null;
}

describe('the review queue on a phone: one readable card per flagged entry', () => {
  const REASON = { est: 'ühe sooritusega, lubatud kuni', eng: 'in one entry, at most' } as const;
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: the card fits ${PHONE} px, shows the reason in full, is not tall, and decides`, async () => {
      const person = people.find((p) => p.teamId === (lang === 'est' ? 2 : 3))!;
      const entryId = await flaggedEntry(person);
      const page = await adminPage(lang, PHONE, 'review');
      await page.getByTestId('review').waitFor();
      await page.getByTestId('review-filter-team').fill(String(person.teamId));
      const row = page.getByTestId(`review-row-${entryId}`);
      await row.waitFor();

      const measured = await row.evaluate((element, reasonPart) => {
        const viewport = document.documentElement.clientWidth;
        const box = element.getBoundingClientRect();
        const cut = [element, ...Array.from(element.querySelectorAll('*'))]
          .map((e) => ({ e, r: e.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.left < -0.5 || r.right > viewport + 0.5))
          .map(({ e }) => e.outerHTML.slice(0, 80));
        // The cell that holds the flag's reason, found by its words.
        const reason = Array.from(element.querySelectorAll<HTMLElement>('td')).find((td) => (td.textContent ?? '').includes(reasonPart))!;
        const reasonBox = reason.getBoundingClientRect();
        const scroller = element.closest('table')!.parentElement!;
        return {
          viewport, height: box.height, cut,
          reasonHidden: reason.scrollWidth > reason.clientWidth + 1 || reason.scrollHeight > reason.clientHeight + 1
            || reasonBox.left < 0 || reasonBox.right > viewport,
          reasonText: reason.textContent ?? '',
          scrollsSideways: scroller.scrollWidth > scroller.clientWidth + 1,
          pageScrollsSideways: document.documentElement.scrollWidth > viewport,
        };
      }, REASON[lang]);
      await row.screenshot({ path: join(artifacts, `review-card-${lang}.png`) });
      expect(measured.viewport).toBe(PHONE);
      expect(measured.cut).toEqual([]);
      expect(measured.scrollsSideways).toBe(false);
      expect(measured.pageScrollsSideways).toBe(false);
      expect(measured.reasonHidden).toBe(false);
      expect(text(measured.reasonText)).toContain(REASON[lang]);
      expect(measured.height).toBeLessThan(300);
      expect(measured.height).toBeGreaterThan(40);
      expect(await seriousViolations(page)).toEqual([]);

      // The card's own buttons decide it: Estonian approves, English rejects.
      const decision = lang === 'est' ? 'approve' : 'reject';
      await page.getByTestId(`review-${decision}-${entryId}`).click();
      await page.getByTestId('alert-success').waitFor();
      await row.waitFor({ state: 'detached' });
      await eventually(async () => (await reviewStatus(person.teamId, entryId)) === (lang === 'est' ? 'approved' : 'rejected'), 10_000);
      await page.context().close();
    }, 90_000);
  }
});

describe('the review table on a desktop: headers stand apart', () => {
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: at ${DESKTOP} px each header's text keeps a visible gap to the next one's`, async () => {
      const person = people.find((p) => p.teamId === (lang === 'est' ? 4 : 5))!;
      await flaggedEntry(person);
      const page = await adminPage(lang, DESKTOP, 'review');
      await page.getByTestId('review-table').waitFor();
      const gaps = await page.getByTestId('review-table').evaluate((table) => {
        const textBox = (th: Element) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          return range.getBoundingClientRect();
        };
        const headers = Array.from(table.querySelectorAll('thead th')).filter((th) => (th.textContent ?? '').trim() !== '');
        return headers.slice(1).map((th, i) => ({ header: th.textContent, gap: textBox(th).left - textBox(headers[i]!).right }));
      });
      expect(gaps.length).toBeGreaterThan(4);
      for (const { header, gap } of gaps) expect(gap, `before ${header}`).toBeGreaterThanOrEqual(12);
      await page.context().close();
    }, 60_000);
  }
});

describe('the users table: fits a desktop, and its ticks ask first', () => {
  const CONSEQUENCE = { est: 'logitakse kohe välja', eng: 'will be logged out' } as const;
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: no sideways scrolling at ${DESKTOP} px; approved asks, cancel keeps, confirm changes`, async () => {
      const person = people.find((p) => p.teamId === (lang === 'est' ? 6 : 8))!;
      const userId = await userIdOf(person.id);
      const approvedNow = async () => (await api<{ users: { id: string; is_approved: boolean }[] }>('/admin/userdata', await adminToken()))
        .body.users.find((u) => u.id === userId)!.is_approved;
      expect(await approvedNow()).toBe(true);

      const page = await adminPage(lang, DESKTOP, 'users');
      const table = page.getByTestId('admin-users-table');
      await table.getByTestId('admin-row').first().waitFor();
      const widths = await table.getByTestId('admin-scroller').evaluate((s) => ({ scroll: s.scrollWidth, client: s.clientWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      expect(await table.getByTestId('admin-scroll-hint').count()).toBe(0);

      await page.locator('[role="tabpanel"] [data-testid="admin-search"]').fill(person.email);
      const row = table.locator(`[data-testid="admin-row"][data-id="${userId}"]`);
      await row.waitFor();
      await table.screenshot({ path: join(artifacts, `admin-users-${lang}.png`) });
      const approved = row.getByTestId('admin-toggle-approved');
      expect(await approved.getAttribute('aria-pressed')).toBe('true');
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'PUT' && request.url().includes('/api/admin/user/')) sent.push(request.url());
      });

      // Cancel: nothing is sent, nothing changes.
      const dialog = page.getByTestId('admin-toggle-confirm');
      await approved.click();
      await dialog.waitFor();
      await page.screenshot({ path: join(artifacts, `admin-users-confirm-${lang}.png`) });
      const question = text(await dialog.textContent());
      expect(question).toContain(person.fullName);
      expect(question).toContain(CONSEQUENCE[lang]);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('admin-toggle-confirm-cancel').click();
      await dialog.waitFor({ state: 'hidden' });
      expect(sent).toEqual([]);
      expect(await approved.getAttribute('aria-pressed')).toBe('true');
      expect(await approvedNow()).toBe(true);

      // Confirm: the approval is revoked, on screen once the server accepted it.
      await approved.click();
      await dialog.waitFor();
      await page.getByTestId('admin-toggle-confirm-yes').click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => approved.getAttribute('aria-pressed')).toBe('false');
      await expect.poll(approvedNow).toBe(false);
      expect(sent).toHaveLength(1);

      // The paid tick asks too; approving again restores the person.
      await row.getByTestId('admin-toggle-paid').click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await approved.click();
      await page.getByTestId('admin-toggle-confirm-yes').click();
      await expect.poll(approvedNow).toBe(true);
      await page.context().close();
    }, 90_000);
  }
});

/** Recipients of an audience straight from the event store: accounts of participants not erased (for `newsletter`, opted in and not unsubscribed). */
async function audienceInDatabase(audience: 'all' | 'newsletter'): Promise<number> {
  return kit.withDatabase(async (db) => {
    const found = await db.query<{ n: number }>(`
      SELECT count(*)::int AS n FROM es.events u
      JOIN es.events p ON p.type = 'ParticipantRegistered' AND p.data->>'participantId' = u.data->>'participantId'
      WHERE u.type = 'UserRegistered'
        AND ($1 = 'all' OR ((p.data->>'newsletter')::boolean AND NOT EXISTS (SELECT 1 FROM es.events n WHERE n.stream = 'newsletter-' || (u.data->>'participantId'))))
        AND NOT EXISTS (SELECT 1 FROM es.events d WHERE d.type = 'UserDeleted' AND d.stream = 'user-' || (u.data->>'userId'))
        AND NOT EXISTS (SELECT 1 FROM es.events d WHERE d.type = 'ParticipantDeleted' AND d.stream = 'participant-' || (u.data->>'participantId'))`, [audience]);
    return found.rows[0]!.n;
  });
}

async function announcementsPublished(subjectPart: string): Promise<number> {
  return kit.withDatabase(async (db) => (await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM es.events WHERE type = 'AnnouncementPublished' AND data->>'subject_en' LIKE $1", [`%${subjectPart}%`])).rows[0]!.n);
}

/** Every mail in the stack's MailDev inbox whose subject contains `part`. */
async function mailsWith(part: string): Promise<{ subject: string; to: { address: string }[] }[]> {
  const inbox = /mail inbox \(MailDev\): (\S+)/.exec(stack.output())![1]!;
  const mails = await (await fetch(`${inbox}/email`)).json() as { subject: string; to: { address: string }[] }[];
  return mails.filter((m) => m.subject.includes(part));
}

const digits = (s: string | null) => (s ?? '').replace(/[\s\u00a0\u202f]/g, '');

describe('announcements: the count, a preview and a test before a confirmed send', () => {
  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: the server's count is shown and confirmed, the test reaches only the admin, cancel sends nothing, confirm sends`, async () => {
      const tag = `${lang}-${Date.now()}`;
      const subscriber = { email: `uudis-${tag}@example.ee`, full_name: lang === 'est' ? 'Ülle Uudis' : 'Nora News', lang, team_name: `Uudistajad ${tag}` };
      const registered = await api('/registerteam', null, { method: 'POST', body: JSON.stringify({
        ...subscriber, gender: 'FEMALE', birth_year: 1985, password: PARTICIPANT_PASSWORD, newsletter: true, type: 'REGISTER_TEAM' }) });
      expect(registered.status).toBe(200);
      const text_ = {
        subject_et: `Teade ${tag}`, body_et: 'Tere!\n\nSinilill algab 1. aprillil.',
        subject_en: `Notice ${tag}`, body_en: 'Hello!\n\nSinilill starts on 1 April.',
      };
      const page = await adminPage(lang, DESKTOP, 'announcements');
      await page.getByTestId('announcements').waitFor();
      await page.getByTestId('announcement-subject-et').fill(text_.subject_et);
      await page.getByTestId('announcement-body-et').fill(text_.body_et);
      await page.getByTestId('announcement-subject-en').fill(text_.subject_en);
      await page.getByTestId('announcement-body-en').fill(text_.body_en);

      // Everyone: the count is the database's, in the page's number format.
      await page.check('[name="audience"][value="all"]');
      const everyone = await audienceInDatabase('all');
      expect(everyone).toBeGreaterThan(1000);
      const recipients = page.getByTestId('announcement-recipients');
      await expect.poll(() => recipients.getAttribute('data-total')).toBe(String(everyone));
      expect(digits(await recipients.textContent())).toContain(String(everyone));
      expect(text(await recipients.textContent())).toContain(lang === 'est' ? 'eesti keeles' : 'in Estonian');

      // The preview shows both languages as the mail sets them.
      expect(await page.getByTestId('announcement-preview-et-subject').textContent()).toBe(text_.subject_et);
      expect(text(await page.getByTestId('announcement-preview-en-body').textContent())).toContain('Sinilill starts on 1 April.');
      expect(await page.getByTestId('announcement-preview-en-body').locator('p').count()).toBe(2);

      // The test goes to the administrator alone, marked as a test, once per language.
      await page.getByTestId('announcement-test').click();
      await page.getByTestId('alert-success').waitFor();
      await kit.mailTo(ADMIN.email, new RegExp(`^\\[PROOV\\] Teade ${tag}$`));
      await kit.mailTo(ADMIN.email, new RegExp(`^\\[TEST\\] Notice ${tag}$`));
      const tests = await mailsWith(tag);
      expect(tests).toHaveLength(2);
      expect(tests.flatMap((m) => m.to.map((t) => t.address))).toEqual([ADMIN.email, ADMIN.email]);
      expect(await announcementsPublished(tag)).toBe(0);

      // Send asks first, naming the count; cancel records and sends nothing.
      const dialog = page.getByTestId('announcement-confirm');
      await page.getByTestId('announcement-send').click();
      await dialog.waitFor();
      expect(digits(await dialog.getByRole('heading').textContent())).toContain(String(everyone));
      expect(text(await dialog.getByRole('heading').textContent())).toMatch(lang === 'est' ? /^Kas saata teade .+ osalejale\?$/ : /^Send to .+ participants\?$/);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByTestId('announcement-confirm-cancel').click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await announcementsPublished(tag)).toBe(0);
      expect(await mailsWith(tag)).toHaveLength(2);

      // The newsletter: confirmed, it is recorded and reaches the subscriber.
      await page.check('[name="audience"][value="newsletter"]');
      const subscribers = await audienceInDatabase('newsletter');
      expect(subscribers).toBeGreaterThan(0);
      await expect.poll(() => recipients.getAttribute('data-total')).toBe(String(subscribers));
      await page.getByTestId('announcement-send').click();
      await dialog.waitFor();
      expect(digits(await dialog.getByRole('heading').textContent())).toContain(String(subscribers));
      await page.getByTestId('announcement-confirm-yes').click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => announcementsPublished(tag)).toBe(1);
      await kit.mailTo(subscriber.email, lang === 'est' ? new RegExp(`^Teade ${tag}$`) : new RegExp(`^Notice ${tag}$`));
      await page.context().close();
    }, 90_000);
  }
});

describe('the history: newest first, numbered pages, fields in words', () => {
  const LABELS = { est: { type: 'Tüüp', distance: 'Distants' }, eng: { type: 'Type', distance: 'Distance' } } as const;
  const newestPositions = (offset: number) => kit.withDatabase(async (db) => (await db.query<{ p: string }>(
    'SELECT global_position AS p FROM es.events ORDER BY global_position DESC LIMIT 1 OFFSET $1', [offset])).rows[0]!.p);

  for (const lang of ['est', 'eng'] as const) {
    test(`${lang}: the newest event comes first, page buttons and a page number open other pages, a diff names its fields`, async () => {
      // An entry whose type and distance change: the timeline's diff to read.
      const person = people.find((p) => p.teamId === (lang === 'est' ? 9 : 10))!;
      const token = await participantToken(person);
      const added = await api<EntryAnswer>('/entry', token, { method: 'POST', body: JSON.stringify({ distance: 5, entry_type: 'WALK', performed_at: '2025-04-18' }) });
      expect(added.status).toBe(200);
      const entryId = added.body.entry.id;
      const edited = await api(`/entry/${entryId}/edit`, token, { method: 'PUT', body: JSON.stringify({ distance: 6.5, entry_type: 'Kepikõnd', performed_at: '2025-04-18' }) });
      expect(edited.status).toBe(200);

      const before = Number(await newestPositions(0));
      const page = await adminPage(lang, DESKTOP, 'history');
      const rows = page.getByTestId('history-event');
      await rows.first().waitFor();
      const after = Number(await newestPositions(0));
      const shown = (await rows.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-position')))));
      expect(shown[0]).toBeGreaterThanOrEqual(before);
      expect(shown[0]).toBeLessThanOrEqual(after);
      expect(shown).toEqual([...shown].sort((a, b) => b - a));
      expect(shown).toHaveLength(50);

      // A numbered page: page 3 starts with the 101st newest event.
      await page.getByTestId('history-page-3').click();
      await expect.poll(() => page.getByTestId('history-page-3').getAttribute('aria-current')).toBe('page');
      await expect.poll(async () => Number(await rows.first().getAttribute('data-position'))).toBe(Number(await newestPositions(100)));
      // A page number typed in.
      await page.getByTestId('history-goto-page').fill('5');
      await page.getByTestId('history-goto-page-submit').click();
      await expect.poll(async () => Number(await rows.first().getAttribute('data-position'))).toBe(Number(await newestPositions(200)));
      await page.getByTestId('history-events').screenshot({ path: join(artifacts, `admin-history-${lang}.png`) });
      expect(await seriousViolations(page)).toEqual([]);
      expect(text(await page.getByTestId('history-page-info').textContent())).toMatch(lang === 'est' ? /^Lehekülg 5 \/ / : /^Page 5 of /);
      // Oldest first on request.
      await page.getByTestId('history-order').selectOption('asc');
      await expect.poll(async () => Number(await rows.first().getAttribute('data-position'))).toBe(1);

      // The edited entry's timeline names the changed fields in words.
      await page.locator('[name="stream"]').fill(`entry-${entryId}`);
      await page.getByTestId('history-apply').click();
      await expect.poll(() => rows.count()).toBe(2);
      const summary = text(await rows.first().textContent());
      expect(summary).toContain(`${LABELS[lang].distance}: 5`);
      expect(summary).not.toContain('entryType');
      await rows.first().getByTestId('history-stream-link').click();
      const timeline = page.getByTestId('history-timeline');
      await timeline.waitFor();
      // The edit is the timeline's last step (the first, EntryAdded, sets every field from nothing).
      const typeDiff = timeline.locator('[data-testid="timeline-diff"][data-field="entryType"]').last();
      await typeDiff.waitFor();
      expect(text(await typeDiff.textContent())).toBe(`${LABELS[lang].type}: WALK → Kepikõnd`);
      expect(text(await timeline.locator('[data-testid="timeline-diff"][data-field="distance"]').last().textContent())).toBe(`${LABELS[lang].distance}: 5 → 6.5`);
      await page.context().close();
    }, 90_000);
  }
});
