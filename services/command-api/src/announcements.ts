/**
 * Announcements: an administrator's announcement becomes one mail per recipient
 * on the BullMQ `mail` queue (@sinilill/messaging), sent by a worker in this process through
 * @sinilill/mail, each in the recipient's stored language (UserRegistered.lang: the language of
 * the registration) with a one-click unsubscribe link.
 *
 * - publish: appends AnnouncementPublished (stream announcement-{id}) and enqueues one `expand`
 *   job. The expand job chooses the recipients from the event store (a filtered read of the log:
 *   every participant with an account, for `newsletter` only those whose ParticipantRegistered
 *   said newsletter and who have not unsubscribed since) and enqueues one `send` job per
 *   recipient (job id `{announcementId}-{userId}`: a repeated expand queues nobody twice).
 * - send: checks again at send time, from the person's streams read through the personal-data
 *   decorator: an erased person (UserDeleted, or an e-mail that reads null after crypto-
 *   shredding) or one who unsubscribed meanwhile is skipped, never mailed.
 * - The queue's limiter (in Redis: all processes' workers together) runs at most
 *   MAIL_RATE_PER_SECOND (10) jobs a second; a failed send is retried (MAIL_ATTEMPTS, 5, exponential backoff from 1 s);
 *   after the last attempt it counts as failed.
 * - Progress per announcement (queued, sent, failed, skipped) is a Redis hash next to the queue
 *   (`{prefix}:announcement:{id}`; index `{prefix}:announcements`, a sorted set by publishing
 *   time). It is operational state like the queue's own: the announcements themselves are events.
 * - unsubscribe: the token (@sinilill/mail unsubscribeToken) names a participant; appends
 *   NewsletterUnsubscribed to newsletter-{participantId} once. A forged token, an unknown or an
 *   erased participant: INVALID_UNSUBSCRIBE_LINK.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { AnnouncementAudience, AnnouncementProgress, AnnouncementRequest } from '@sinilill/contracts';
import { DomainError, SCHEMA_VERSIONS, announcementStreams, streams, type AnnouncementPublished, type MailLanguage } from '@sinilill/domain';
import { deterministicUuid, eventIdFor, priorCommand, type CommandMetadata } from '@sinilill/commands';
import type { Actor, EventMetadata, EventStore } from '@sinilill/event-store';
import { announcementMail, verifyUnsubscribeToken, unsubscribeToken, type AnnouncementContent, type Mailer } from '@sinilill/mail';
import { MAIL_QUEUE, createMailQueue, createMailWorker, type Job, type Queue, type Worker } from '@sinilill/messaging';

export { MAIL_QUEUE };
/** Mails a second the worker sends at most (BullMQ limiter). */
export const MAIL_RATE_PER_SECOND = 10;
/** Attempts of one mail before it counts as failed. */
export const MAIL_ATTEMPTS = 5;

type ExpandJob = { kind: 'expand'; announcementId: string };
type SendJob = { kind: 'send'; announcementId: string; userId: string; participantId: number };
type MailJob = ExpandJob | SendJob;

export interface AnnouncementsOptions {
  /** The event store (through the personal-data decorator); the audience is read from it on either engine. */
  store: EventStore;
  redisUrl: string;
  /** Queue key prefix (QUEUE_PREFIX), default 'sinilill'. */
  prefix?: string;
  mailer: Mailer;
  /** The site's address without a trailing slash (the unsubscribe links). */
  publicUrl: string;
  /** JWT_SECRET: the unsubscribe tokens' key is derived from it. */
  secret: string;
  now: () => Date;
  /** Limiter and retries; defaults MAIL_RATE_PER_SECOND a second, MAIL_ATTEMPTS, 1000 ms backoff. */
  ratePerSecond?: number;
  attempts?: number;
  backoffMs?: number;
  log?: { warn(details: object, message: string): void };
}

/** One recipient of an announcement: the account, its participant and the account's language. */
interface Recipient {
  userId: string;
  participantId: number;
  lang: string | undefined;
}

/** A participant id as the log holds it (a JSON number; text from an old import), or null. */
function idOf(value: unknown): number | null {
  const id = typeof value === 'string' && value !== '' ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/** The event types the audience is chosen from (besides the newsletter streams). */
const AUDIENCE_TYPES = ['UserRegistered', 'ParticipantRegistered', 'UserDeleted', 'ParticipantDeleted'];

/** The announcement commands, the mail queue and its worker, and the progress counts. */
export class Announcements {
  readonly queue: Queue<MailJob>;
  private worker: Worker<MailJob> | undefined;
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(private readonly options: AnnouncementsOptions) {
    this.prefix = options.prefix ?? 'sinilill';
    this.queue = createMailQueue<MailJob>({
      redisUrl: options.redisUrl, prefix: this.prefix, attempts: options.attempts ?? MAIL_ATTEMPTS, backoffMs: options.backoffMs ?? 1000,
    });
    this.redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 2 });
    this.redis.on('error', () => undefined);
  }

  private key(announcementId: string): string {
    return `${this.prefix}:announcement:${announcementId}`;
  }

  /**
   * Records the announcement and starts sending it; answers its id. With `command` from a keyed
   * request (an Idempotency-Key: its request fingerprint), the id and the event's id follow from
   * the command id, and a repeat answers the first request's id and sends nothing again
   * (docs/decisions/0108).
   * @throws DomainError('IDEMPOTENCY_KEY_REUSED') for the key of another request.
   */
  async publish(request: AnnouncementRequest, actor: Actor, command?: Pick<CommandMetadata, 'commandId' | 'requestFingerprint' | 'correlationId'>): Promise<{ announcementId: string }> {
    const keyed = command?.requestFingerprint !== undefined ? { ...command, requestFingerprint: command.requestFingerprint } : undefined;
    if (keyed) {
      const prior = await priorCommand(this.options.store, keyed);
      if (prior) return { announcementId: (prior.data as AnnouncementPublished['data']).announcementId };
    }
    const announcementId = keyed ? deterministicUuid(`announcement:${keyed.commandId}`) : randomUUID();
    const publishedAt = this.options.now().toISOString();
    const data: AnnouncementPublished['data'] = { announcementId, ...request, publishedBy: actor.userId, publishedAt };
    await this.options.store.appendToStream(announcementStreams.announcement(announcementId), [{
      id: keyed ? eventIdFor(keyed.commandId, 0) : randomUUID(), type: 'AnnouncementPublished', schemaVersion: SCHEMA_VERSIONS.AnnouncementPublished, data,
      // The fingerprint rides in the metadata as the commands' events carry it (CommandEventMetadata).
      metadata: keyed
        ? { actor, correlationId: keyed.correlationId, causationId: null, commandId: keyed.commandId, requestFingerprint: keyed.requestFingerprint } as EventMetadata
        : { actor, correlationId: randomUUID(), causationId: null },
    }], { expectedRevision: 'no_stream' });
    await this.redis.multi()
      .hset(this.key(announcementId), { subject_et: request.subject_et, subject_en: request.subject_en, audience: request.audience, publishedAt, sent: 0, failed: 0, skipped: 0 })
      // Scored by this machine's real time (the service's clock may be simulated and stand still).
      .zadd(`${this.prefix}:announcements`, Date.now(), announcementId)
      .exec();
    await this.queue.add('expand', { kind: 'expand', announcementId }, { jobId: `expand-${announcementId}` });
    return { announcementId };
  }

  /**
   * How many an announcement to `audience` would reach if sent now, and how many of them read
   * Estonian and English (the account's stored language; an account without one reads Estonian,
   * as its mails do). The same query the sending runs, so the count shown is the count queued
   * unless someone registers, unsubscribes or is erased in between.
   */
  async recipients(audience: AnnouncementAudience): Promise<{ audience: AnnouncementAudience; total: number; est: number; eng: number }> {
    const recipients = await this.audience(audience);
    const total = recipients.length;
    const eng = recipients.filter((r) => r.lang === 'eng').length;
    return { audience, total, est: total - eng, eng };
  }

  /**
   * The recipients of `audience`, by participant id: every account of a participant
   * (UserRegistered naming a participant with a ParticipantRegistered), for `newsletter` only
   * participants registered with newsletter true and without an event in their newsletter stream
   * (NewsletterUnsubscribed); deleted accounts and participants left out. Two filtered reads of
   * the log (EventStore.readEvents), on either engine.
   */
  private async audience(audience: AnnouncementAudience): Promise<Recipient[]> {
    const { store } = this.options;
    const [events, newsletter] = await Promise.all([
      store.readEvents({ types: AUDIENCE_TYPES }),
      audience === 'newsletter' ? store.readEvents({ category: 'newsletter' }) : Promise.resolve([]),
    ]);
    const unsubscribed = new Set(newsletter.map((e) => e.stream));
    const deleted = new Set(events.filter((e) => e.type === 'UserDeleted' || e.type === 'ParticipantDeleted').map((e) => e.stream));
    const participants = new Map<number, { newsletter?: unknown }>();
    for (const e of events) {
      const data = e.data as { participantId?: unknown; newsletter?: unknown };
      const id = idOf(data.participantId);
      if (e.type === 'ParticipantRegistered' && id !== null) participants.set(id, data);
    }
    const recipients: Recipient[] = [];
    for (const e of events) {
      if (e.type !== 'UserRegistered') continue;
      const { userId, participantId: raw, lang } = e.data as { userId: string; participantId?: unknown; lang?: string };
      const participantId = idOf(raw);
      if (participantId === null) continue;
      const participant = participants.get(participantId);
      if (!participant) continue;
      if (audience === 'newsletter' && (participant.newsletter !== true || unsubscribed.has(announcementStreams.newsletter(participantId)))) continue;
      if (deleted.has(streams.user(userId)) || deleted.has(streams.participant(participantId))) continue;
      recipients.push({ userId, participantId, lang });
    }
    return recipients.sort((a, b) => a.participantId - b.participantId);
  }

  /**
   * Sends the announcement to the calling administrator only, once in each language, the subject
   * prefixed "[PROOV]" / "[TEST]"; nothing is recorded or queued. The address is the account's
   * own (UserRegistered or AdminRegistered, read through the personal-data decorator).
   * NOT_FOUND when the account has no address (erased). Answers the number of mails sent (2).
   */
  async sendTest(content: AnnouncementContent, actor: Actor): Promise<{ sent: number }> {
    if (actor.userId === null) throw new DomainError('FORBIDDEN', 'a test goes to an account');
    const events = await this.options.store.readStream(streams.user(actor.userId));
    const registered = events.find((e) => e.type === 'UserRegistered' || e.type === 'AdminRegistered')?.data as
      { email: string | null; participantId?: number } | undefined;
    if (!registered?.email || events.some((e) => e.type === 'UserDeleted')) throw new DomainError('NOT_FOUND', 'the account has no address');
    // An administrator without a participant has no newsletter to leave: the link opens the page.
    const links = registered.participantId === undefined
      ? { page: `${this.options.publicUrl}/unsubscribe` }
      : this.unsubscribeLinks(registered.participantId);
    const marked: AnnouncementContent = {
      subject_et: `[PROOV] ${content.subject_et}`, body_et: content.body_et,
      subject_en: `[TEST] ${content.subject_en}`, body_en: content.body_en,
    };
    for (const lang of ['est', 'eng'] as const) await this.options.mailer.send(announcementMail(registered.email, marked, lang, links));
    return { sent: 2 };
  }

  /** The latest `limit` announcements with their progress, newest first. */
  async list(limit = 50): Promise<AnnouncementProgress[]> {
    const ids = await this.redis.zrevrange(`${this.prefix}:announcements`, 0, limit - 1);
    const rows = await Promise.all(ids.map(async (id) => [id, await this.redis.hgetall(this.key(id))] as const));
    return rows.filter(([, h]) => h.publishedAt !== undefined).map(([id, h]) => ({
      announcementId: id,
      subject_et: h.subject_et ?? '',
      subject_en: h.subject_en ?? '',
      audience: h.audience === 'all' ? 'all' : 'newsletter',
      publishedAt: h.publishedAt!,
      queued: h.queued === undefined ? null : Number(h.queued),
      sent: Number(h.sent ?? 0),
      failed: Number(h.failed ?? 0),
      skipped: Number(h.skipped ?? 0),
    }));
  }

  /**
   * The links a recipient's mail carries: the page {publicUrl}/unsubscribe/{token} and the
   * one-click address {publicUrl}/api/unsubscribe/{token} (List-Unsubscribe, RFC 8058).
   */
  unsubscribeLinks(participantId: number): { page: string; oneClick: string } {
    const token = unsubscribeToken(this.options.secret, participantId);
    return { page: `${this.options.publicUrl}/unsubscribe/${token}`, oneClick: `${this.options.publicUrl}/api/unsubscribe/${token}` };
  }

  /** Unsubscribes the participant a token names (idempotent). INVALID_UNSUBSCRIBE_LINK when forged or erased. */
  async unsubscribe(token: string): Promise<void> {
    const participantId = verifyUnsubscribeToken(this.options.secret, token);
    if (participantId === null) throw new DomainError('INVALID_UNSUBSCRIBE_LINK', 'the unsubscribe link is not valid');
    const events = await this.options.store.readStream(streams.participant(participantId));
    const registered = events.find((e) => e.type === 'ParticipantRegistered')?.data as { email?: string | null } | undefined;
    if (!registered || registered.email == null || events.some((e) => e.type === 'ParticipantDeleted')) {
      throw new DomainError('INVALID_UNSUBSCRIBE_LINK', 'no such participant (or erased)');
    }
    const stream = announcementStreams.newsletter(participantId);
    if ((await this.options.store.readStream(stream)).some((e) => e.type === 'NewsletterUnsubscribed')) return;
    await this.options.store.appendToStream(stream, [{
      // One id per participant: a repeated click stores nothing twice.
      id: randomUUID(), type: 'NewsletterUnsubscribed', schemaVersion: SCHEMA_VERSIONS.NewsletterUnsubscribed,
      data: { participantId, unsubscribedAt: this.options.now().toISOString() },
      metadata: { actor: { userId: null, role: 'SYSTEM' }, correlationId: randomUUID(), causationId: null },
    }], { expectedRevision: 'any' });
  }

  /** Starts the worker that expands announcements and sends their mails. */
  startWorker(): Worker<MailJob> {
    this.worker ??= createMailWorker<MailJob>(
      { redisUrl: this.options.redisUrl, prefix: this.prefix, ratePerSecond: this.options.ratePerSecond ?? MAIL_RATE_PER_SECOND },
      (job) => this.process(job),
    );
    this.worker.on('error', (error) => this.options.log?.warn({ err: error }, 'mail worker error'));
    return this.worker;
  }

  private async process(job: Job<MailJob>): Promise<string> {
    const data = job.data;
    if (data.kind === 'expand') return this.expand(data);
    try {
      return await this.send(data);
    } catch (error) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.redis.hincrby(this.key(data.announcementId), 'failed', 1);
        this.options.log?.warn({ err: error, announcementId: data.announcementId, userId: data.userId }, 'announcement mail failed for good');
      }
      throw error;
    }
  }

  private async announcement(announcementId: string): Promise<AnnouncementPublished['data'] | null> {
    const events = await this.options.store.readStream(announcementStreams.announcement(announcementId));
    return (events.find((e) => e.type === 'AnnouncementPublished')?.data as AnnouncementPublished['data'] | undefined) ?? null;
  }

  private async expand(job: ExpandJob): Promise<string> {
    const announcement = await this.announcement(job.announcementId);
    if (!announcement) return 'no such announcement';
    const rows = await this.audience(announcement.audience satisfies AnnouncementAudience);
    await this.queue.addBulk(rows.map((row) => ({
      name: 'send',
      data: { kind: 'send' as const, announcementId: job.announcementId, userId: row.userId, participantId: row.participantId },
      opts: { jobId: `${job.announcementId}-${row.userId}` },
    })));
    await this.redis.hset(this.key(job.announcementId), 'queued', rows.length);
    return `${rows.length} queued`;
  }

  private async send(job: SendJob): Promise<string> {
    const announcement = await this.announcement(job.announcementId);
    if (!announcement) return 'no such announcement';
    const [user, newsletter] = await Promise.all([
      this.options.store.readStream(streams.user(job.userId)),
      this.options.store.readStream(announcementStreams.newsletter(job.participantId)),
    ]);
    const registered = user.find((e) => e.type === 'UserRegistered')?.data as { email: string | null; lang: MailLanguage } | undefined;
    const erased = !registered || registered.email == null || user.some((e) => e.type === 'UserDeleted');
    const unsubscribed = announcement.audience === 'newsletter' && newsletter.some((e) => e.type === 'NewsletterUnsubscribed');
    if (erased || unsubscribed) {
      await this.redis.hincrby(this.key(job.announcementId), 'skipped', 1);
      return erased ? 'skipped: erased' : 'skipped: unsubscribed';
    }
    await this.options.mailer.send(announcementMail(registered.email!, announcement, registered.lang, this.unsubscribeLinks(job.participantId)));
    await this.redis.hincrby(this.key(job.announcementId), 'sent', 1);
    return 'sent';
  }

  /** Stops the worker (its mail in flight finishes), then the queue and Redis. */
  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
    this.redis.disconnect();
  }
}
