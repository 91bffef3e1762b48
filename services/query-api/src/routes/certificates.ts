/**
 * Certificates and share images (contract @sinilill/contracts
 * certificates.ts):
 *
 * - GET /participant/{id}/certificate.pdf: the participant themself, their team's members and
 *   administrators; GET /team/{id}/certificate.pdf: the team's members and administrators. 401
 *   UNAUTHORIZED, 403 FORBIDDEN (anyone else, whether or not the participant or team exists), 404
 *   NOT_FOUND (an administrator asking for an unknown one, or an erased name), then 409
 *   CERTIFICATE_NOT_AVAILABLE_YET while entries may still be added (until midnight at the end of
 *   the late-entry day of the team's own edition, in its zone, on the app's clock: results are
 *   final after it, and always in a closed edition). The certificate names its team's edition.
 * - GET /certificates/{code}, public: the figures the code certifies, recomputed now from the read
 *   models (team-directory's members, team-stats' teams: the log's own projections, the same
 *   figures the team page shows, and the only place that knows a name is erased — the event log
 *   keeps erased people's events, their names no longer readable). A malformed, mistyped or forged
 *   code, one naming another edition than its team's, or one whose participant is deleted or whose name is erased →
 *   CERTIFICATE_NOT_VALID (404), and no name.
 * - GET /team/{id}/share.png?lang, public: the team's 1200×630 share image (what GET /api/stats
 *   shows: name, km, flowers, missions of the lap, the lap's progress). Rendering costs (~100 ms):
 *   images are kept in the process by their content (the figures they show), so an unchanged team
 *   is drawn once; ETag and `Cache-Control: public, max-age=300`.
 * - GET /share/team/{id}?lang, public: the team-progress page with its Open Graph tags (share-page.ts).
 *
 * Absolute addresses (the QR code's, og:image) start with `publicUrl` (PUBLIC_URL) when given, else
 * with the request's own origin (X-Forwarded-Proto and -Host, from the trusted proxies only).
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import Type from 'typebox';
import {
  certificateCode,
  certificatePdf,
  normaliseCertificateCode,
  PROGRESS_PAGE_CSP,
  progressPageHtml,
  readCertificateCode,
  shareImagePng,
  type CertificateSubject,
  type ShareFigures,
} from '@sinilill/certificates';
import { CertificateAnswer, CertificateCodeParams, ErrorAnswer, ShareQuery } from '@sinilill/contracts';
import { DomainError, fromHundredths, isEntryWindowOpen, isPrivileged, teamProgress, type Edition, type EditionCatalog } from '@sinilill/domain';
import { ID_PATTERN, perAddress, routeFile, type Limit } from '@sinilill/http';
import { teamDirectoryProjection, teamStatsProjection, type ReadModelDatabase } from '@sinilill/read-models';
import type { ReadModelEditions } from '../editions';
import { entityTag, ifNoneMatchMatches } from '../answer-cache';
import { requireTeamAccess, type AccountParticipants } from '../team-access';
import type { RouteDependencies } from '../dependencies';

export interface CertificateRouteOptions {
  /** Every participant of an account: a member of a past edition's team still reads it (team-access.ts). */
  accountParticipants?: AccountParticipants;
  db: Kysely<ReadModelDatabase>;
  /** The app's clock: certificates are available once the late-entry deadline has passed on it. */
  now: () => Date;
  /** The session tokens' secret (JWT_SECRET): the codes' key is derived from it (code.ts). */
  secret: string;
  /** The site's address (PUBLIC_URL, no trailing slash); default: the request's origin. */
  publicUrl?: string;
  /** Share images kept in the process, at most; default 200 (about 30 KB each). */
  maxImages?: number;
  editions: ReadModelEditions;
  /** Per client address (docs/decisions/0108): certificate checks (a code could be guessed at) and share renders; none when absent. */
  limits?: { certificateChecks: Limit; shareRenders: Limit };
}

const Params = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const BOTH = { reads: [teamDirectoryProjection.name, teamStatsProjection.name] };
const STATS = { reads: [teamStatsProjection.name] };
/** Bodies that are not JSON, for the API's document (Fastify sends a Buffer or a string as it is). */
const PDF = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'application/pdf' });
const PNG = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'image/png, 1200×630' });
const NOT_MODIFIED = Type.Null({ description: 'Not modified (If-None-Match matched the ETag): no body' });
const HTML = Type.Unsafe<string>({ type: 'string', description: 'text/html; charset=utf-8' });
const refusals = { 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer };

type Rm = ReturnType<Kysely<ReadModelDatabase>['withSchema']>;

/** Missions the team completed, every lap counted, from its rounded km on its edition's route (spec §4). */
function missionsOf(distanceKm: number, edition: Edition): number {
  const progress = teamProgress(distanceKm, edition);
  return progress.prestige * edition.route.missions.length + progress.missionsCompleted;
}

const editionOfAnswer = (edition: Edition) => ({ year: edition.year, startDate: edition.startDate, endDate: edition.endDate });

/**
 * What `subject` certifies now, from the read models, or null: an unknown (deleted) participant or
 * team, an erased name, or a code naming another edition than the team's own. A certificate of
 * a closed edition keeps verifying: its team's rows stay.
 */
async function figuresOf(rm: Rm, catalog: EditionCatalog, subject: CertificateSubject, secret: string): Promise<CertificateAnswer | null> {
  const code = certificateCode(subject, secret);
  if (subject.kind === 'team') {
    const team = await rm.selectFrom('team_stats').selectAll().where('team_id', '=', subject.id).executeTakeFirst();
    const edition = team && team.edition === subject.edition ? catalog.get(team.edition)?.edition : undefined;
    if (!team || !edition) return null;
    return {
      code, kind: 'team', name: team.team_name, team_name: team.team_name,
      distance: fromHundredths(team.distance_hundredths), blueFlowers: team.blue_flowers, missions: missionsOf(team.distance, edition),
      edition: editionOfAnswer(edition),
    };
  }
  const row = await rm.selectFrom('team_members as m').innerJoin('team_stats as t', 't.team_id', 'm.team_id')
    .select(['m.full_name', 'm.distance_hundredths', 't.team_name', 't.distance', 't.blue_flowers', 't.edition'])
    .where('m.participant_id', '=', subject.id).executeTakeFirst();
  const edition = row && row.edition === subject.edition ? catalog.get(row.edition)?.edition : undefined;
  if (!row || row.full_name === null || !edition) return null;
  return {
    code, kind: 'participant', name: row.full_name, team_name: row.team_name,
    distance: fromHundredths(row.distance_hundredths), blueFlowers: row.blue_flowers, missions: missionsOf(row.distance, edition),
    edition: editionOfAnswer(edition),
  };
}

/** A small least-recently-used memory of rendered images, by key. */
class ImageMemory {
  private readonly images = new Map<string, Promise<{ png: Buffer; etag: string }>>();
  constructor(private readonly max: number) {}

  get(key: string, render: () => Promise<Buffer>): Promise<{ png: Buffer; etag: string }> {
    let image = this.images.get(key);
    if (image) {
      this.images.delete(key);
    } else {
      image = render().then((png) => ({ png, etag: entityTag(png) }));
      // A failed drawing is not kept: the next request tries again.
      image.catch(() => this.images.delete(key));
    }
    this.images.set(key, image);
    while (this.images.size > this.max) this.images.delete(this.images.keys().next().value!);
    return image;
  }
}

export const certificateRoutes: FastifyPluginAsyncTypebox<CertificateRouteOptions> = async (app, options) => {
  const { db, now, secret, editions, accountParticipants } = options;
  const rm = db.withSchema('rm');
  const images = new ImageMemory(options.maxImages ?? 200);
  const originOf = (request: FastifyRequest) => options.publicUrl ?? `${request.protocol}://${request.host}`;
  const checks = perAddress('certificate-check', options.limits?.certificateChecks);
  // The image and the page share one budget: a crawler fetches both for one share.
  const renders = perAddress('share-render', options.limits?.shareRenders);

  /**
   * The edition of team `teamId` (its own, from team-stats), once its results are final: a
   * closed edition's are; an open one's once entries may no longer be added.
   * @throws DomainError NOT_FOUND (no such team), CERTIFICATE_NOT_AVAILABLE_YET.
   */
  const finalEditionOf = async (teamId: number): Promise<Edition> => {
    const team = await rm.selectFrom('team_stats').select('edition').where('team_id', '=', teamId).executeTakeFirst();
    const record = team ? (await editions.catalog()).get(team.edition) : undefined;
    if (!record) throw new DomainError('NOT_FOUND', `team ${teamId}`);
    const { edition } = record;
    if (record.status !== 'closed' && isEntryWindowOpen(now().toISOString(), edition)) {
      throw new DomainError('CERTIFICATE_NOT_AVAILABLE_YET', `until the end of ${edition.lateEntriesUntil} (${edition.timeZone})`);
    }
    return edition;
  };

  const sendPdf = async (request: FastifyRequest, subject: CertificateSubject) => {
    const figures = await figuresOf(rm, await editions.catalog(), subject, secret);
    if (!figures) throw new DomainError('NOT_FOUND', `${subject.kind} ${subject.id}`);
    const verifyUrl = `${originOf(request)}/verify/${figures.code}`;
    return Buffer.from(await certificatePdf({ figures, verifyUrl, issuedAt: now() }));
  };
  const pdfHeaders = { 'content-type': 'application/pdf', 'cache-control': 'private, no-store' };

  app.get('/participant/:id/certificate.pdf', {
    onRequest: [app.authenticate],
    config: BOTH,
    schema: { params: Params, response: { 200: PDF, ...refusals } },
  }, async (request, reply) => {
    const participantId = Number(request.params.id);
    const member = await rm.selectFrom('team_members').select('team_id').where('participant_id', '=', participantId).executeTakeFirst();
    if (!member) {
      if (isPrivileged(request.actor)) throw new DomainError('NOT_FOUND', `participant ${participantId}`);
      throw new DomainError('FORBIDDEN', `participant ${participantId}`);
    }
    await requireTeamAccess(db, request.actor, member.team_id, accountParticipants);
    const edition = await finalEditionOf(member.team_id);
    const pdf = await sendPdf(request, { kind: 'participant', id: participantId, edition: edition.year });
    return reply.headers({ ...pdfHeaders, 'content-disposition': `attachment; filename="sinilill-${edition.year}-${participantId}.pdf"` }).send(pdf);
  });

  app.get('/team/:id/certificate.pdf', {
    onRequest: [app.authenticate],
    config: BOTH,
    schema: { params: Params, response: { 200: PDF, ...refusals } },
  }, async (request, reply) => {
    const teamId = Number(request.params.id);
    await requireTeamAccess(db, request.actor, teamId, accountParticipants);
    const edition = await finalEditionOf(teamId);
    const pdf = await sendPdf(request, { kind: 'team', id: teamId, edition: edition.year });
    return reply.headers({ ...pdfHeaders, 'content-disposition': `attachment; filename="sinilill-${edition.year}-team-${teamId}.pdf"` }).send(pdf);
  });

  app.get('/certificates/:code', {
    config: { ...BOTH, ...checks },
    schema: { params: CertificateCodeParams, response: { 200: CertificateAnswer, 404: ErrorAnswer } },
  }, async (request, reply) => {
    const subject = readCertificateCode(request.params.code, secret);
    const figures = subject ? await figuresOf(rm, await editions.catalog(), subject, secret) : null;
    // The same answer for every refusal: nothing tells a forged code from an erased person's.
    if (!figures) throw new DomainError('CERTIFICATE_NOT_VALID', normaliseCertificateCode(request.params.code) ?? 'malformed');
    // A name: no shared cache keeps it (an erasure must take effect at once).
    void reply.header('cache-control', 'private, no-store');
    return figures;
  });

  /** The team's public figures for the image and the page, or NOT_FOUND. */
  const shareFiguresOf = async (teamId: number): Promise<ShareFigures> => {
    const team = await rm.selectFrom('team_stats').select(['team_name', 'edition', 'distance', 'blue_flowers', 'prestige', 'in_lap_distance'])
      .where('team_id', '=', teamId).executeTakeFirst();
    const edition = team ? (await editions.catalog()).get(team.edition)?.edition : undefined;
    if (!team || !edition) throw new DomainError('NOT_FOUND', `team ${teamId}`);
    // The team's own edition's route (a past edition's team keeps its figures).
    const progress = teamProgress(team.distance, edition);
    return {
      teamName: team.team_name, distance: team.distance, blueFlowers: team.blue_flowers,
      missionsInLap: progress.missionsCompleted, missionsPerLap: edition.route.missions.length,
      laps: progress.prestige, lapFraction: progress.lapPercentage, year: edition.year,
    };
  };
  /** A short fingerprint of what an image shows: its cache key and the og:image's version. */
  const versionOf = (figures: ShareFigures, lang: string) =>
    createHash('sha256').update(JSON.stringify([lang, figures])).digest('base64url').slice(0, 12);

  app.get('/team/:id/share.png', {
    config: { ...STATS, ...renders },
    compress: false,
    // `v` (the figures' fingerprint) only makes a new address for social networks' caches when the figures change.
    schema: { querystring: Type.Intersect([ShareQuery, Type.Object({ v: Type.Optional(Type.String({ maxLength: 32 })) })]), params: Params, response: { 200: PNG, 304: NOT_MODIFIED, 404: ErrorAnswer } },
  }, async (request, reply) => {
    const lang = request.query.lang ?? 'et';
    const figures = await shareFiguresOf(Number(request.params.id));
    const { png, etag } = await images.get(`${request.params.id}:${versionOf(figures, lang)}`, () => shareImagePng(figures, lang));
    void reply.headers({ etag, 'cache-control': 'public, max-age=300', 'cross-origin-resource-policy': 'cross-origin' });
    if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) return reply.status(304).send(null);
    return reply.type('image/png').send(png);
  });

  app.get('/share/team/:id', {
    config: { ...STATS, ...renders },
    schema: { params: Params, querystring: ShareQuery, response: { 200: HTML, 404: ErrorAnswer } },
  }, async (request, reply) => {
    const lang = request.query.lang ?? 'et';
    const teamId = Number(request.params.id);
    const figures = await shareFiguresOf(teamId);
    const origin = originOf(request);
    const html = progressPageHtml({
      figures, lang,
      pageUrl: `${origin}/api/share/team/${teamId}${lang === 'et' ? '' : `?lang=${lang}`}`,
      imageUrl: `${origin}/api/team/${teamId}/share.png?lang=${lang}&v=${versionOf(figures, lang)}`,
      otherLanguageUrl: `/api/share/team/${teamId}${lang === 'et' ? '?lang=en' : ''}`,
      homeUrl: '/',
    });
    return reply.headers({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PROGRESS_PAGE_CSP, 'cache-control': 'public, max-age=60' }).send(html);
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(certificateRoutes, (deps: RouteDependencies) => ({
  db: deps.db, now: deps.now, editions: deps.editions, secret: deps.jwtSecret,
  limits: { certificateChecks: deps.limits.certificateChecks, shareRenders: deps.limits.shareRenders },
  ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}), ...(deps.accountParticipants ? { accountParticipants: deps.accountParticipants } : {}),
}));
