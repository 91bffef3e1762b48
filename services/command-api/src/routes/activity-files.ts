/**
 * Activity files, for a member of the team in the path only (401 UNAUTHORIZED
 * without a valid token, 403 FORBIDDEN for anyone else, an admin included: an entry from a file is
 * the member's own):
 *
 * - POST /team/{id}/activity-files: the raw bytes of ONE GPX, TCX or FIT file (Content-Type
 *   application/octet-stream, at most ACTIVITY_FILE_BODY_LIMIT; its name percent-encoded in
 *   ACTIVITY_FILE_NAME_HEADER) → its proposal: its parts (one per sport and per local day, each
 *   with km, day in Europe/Tallinn or null for a file without time, type from its sport, a thinned
 *   track), the first part's fields and the parts' km summed at the top (for one-part clients),
 *   whether it counts for a live entry already, and a signed proposal token binding every part.
 *   Nothing is stored. Refusals: ACTIVITY_FILE_TOO_LARGE (413), ACTIVITY_FILE_NOT_SUPPORTED (415;
 *   another format or content type), ACTIVITY_FILE_UNREADABLE (400), ACTIVITY_FILE_EMPTY (400),
 *   ACTIVITY_FILE_IS_ROUTE (400).
 * - POST /team/{id}/activity-files/confirm {token, entry_type?, parts?}: every part becomes an entry
 *   of the member through the entry rules (window, deadline, distance rules, moderation,
 *   Idempotency-Key), its source the file, and the file's stream is appended, all in ONE atomic
 *   append (packages/commands entry/file-entries.ts): one part refused refuses the file. The same
 *   file is refused while one of its entries lives: ACTIVITY_FILE_ALREADY_USED (409). A part's
 *   entry_type (else the body's, else the file's) is required where the file had none
 *   (INVALID_ENTRY_TYPE); a part's performed_at is required where the file had no time and refused
 *   elsewhere (INVALID_PERFORMED_AT, INVALID_REQUEST). → { success, entry (the first), entries, position }.
 *
 * The member check runs before the body is read, so a stranger's 20 MB costs nothing.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import Type from 'typebox';
import {
  ACTIVITY_FILE_BODY_LIMIT,
  ACTIVITY_FILE_NAME_HEADER,
  ActivityFileProposalAnswer,
  ConfirmActivityFileAnswer,
  ConfirmActivityFileBody,
  ErrorAnswer,
} from '@sinilill/contracts';
import type { CommandService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';
import { ID_PATTERN, routeFile } from '@sinilill/http';
import { readActivityFileOffThread } from '../activity-file-parser';
import { runCommand } from '../command-request';
import { ACTIVITY_FILE_TOKEN_SECONDS, activityFileTokenKey, signActivityFileToken, verifyActivityFileToken, type ActivityFileClaims } from '../activity-file-token';
import type { RouteDependencies } from '../dependencies';

export interface ActivityFileRouteOptions {
  commands: CommandService;
  /** The app's JWT secret: the proposal tokens' key is derived from it (HKDF). */
  jwtSecret: string;
  /** Heap of the worker that reads a file, MB (ACTIVITY_FILE_HEAP_MB; default ACTIVITY_FILE_WORKER_HEAP_MB). */
  heapMb?: number;
}

const ID = new RegExp(ID_PATTERN);
const TeamParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN }) });
const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 413: ErrorAnswer, 415: ErrorAnswer, 422: ErrorAnswer };

/** 403 FORBIDDEN unless the actor is a participant of the team in the path (before the body is read). */
async function mustBeMember(request: FastifyRequest): Promise<void> {
  const { id } = request.params as { id?: unknown };
  if (typeof id !== 'string' || !ID.test(id)) return; // validation answers 400
  if (request.actor.participantId === null || request.actor.teamId !== Number(id)) {
    throw new DomainError('FORBIDDEN', `only a member of team ${id} adds its activity files`);
  }
}

/** A body over the limit, or not octet-stream, as the catalogue's activity-file codes. */
function activityFileBodyErrors(error: FastifyError): never {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new DomainError('ACTIVITY_FILE_TOO_LARGE', `over ${ACTIVITY_FILE_BODY_LIMIT} bytes`);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', 'send the file as application/octet-stream');
  throw error;
}

/** The file name of the header, decoded; '' when absent or malformed. At most 255 characters kept. */
function fileNameOf(request: FastifyRequest): string {
  const raw = request.headers[ACTIVITY_FILE_NAME_HEADER];
  if (typeof raw !== 'string') return '';
  try {
    return decodeURIComponent(raw).replace(/[\p{Cc}]/gu, '').slice(0, 255);
  } catch {
    return '';
  }
}

export const activityFileRoutes: FastifyPluginAsyncTypebox<ActivityFileRouteOptions> = async (app, { commands, jwtSecret, heapMb }) => {
  const key = activityFileTokenKey(jwtSecret);
  app.addHook('onRequest', app.authenticate);
  // Scoped to this plugin: only these routes take raw bytes.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: ACTIVITY_FILE_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  app.post('/team/:id/activity-files', {
    bodyLimit: ACTIVITY_FILE_BODY_LIMIT,
    preParsing: mustBeMember,
    schema: { params: TeamParams, response: { 200: ActivityFileProposalAnswer, ...errors } },
    errorHandler: activityFileBodyErrors,
  }, async (request, reply) => {
    const body = request.body;
    // Another content type (text, JSON: parsed by the app's own parsers) is not a file upload.
    if (body !== undefined && body !== null && !Buffer.isBuffer(body)) throw new DomainError('ACTIVITY_FILE_NOT_SUPPORTED', 'send the file as application/octet-stream');
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    const fileName = fileNameOf(request);
    const proposal = await readActivityFileOffThread(bytes, fileName, heapMb);
    const { parts } = proposal;
    const expiresAt = Date.now() + ACTIVITY_FILE_TOKEN_SECONDS * 1000;
    const token = signActivityFileToken(key, {
      teamId: Number(request.params.id),
      participantId: request.actor.participantId!,
      sha256: proposal.sha256,
      format: proposal.format,
      parts: parts.map((part) => ({ distance: part.distanceKm, performedAt: part.performedAt, entryType: part.entryType })),
      expiresAt,
    });
    reply.header('cache-control', 'no-store');
    const first = parts[0]!;
    return {
      file_name: fileName,
      format: proposal.format,
      sha256: proposal.sha256,
      distance: Math.round(parts.reduce((sum, part) => sum + Math.round(part.distanceKm * 100), 0)) / 100,
      performed_at: first.performedAt,
      entry_type: first.entryType,
      track: first.track,
      parts: parts.map((part) => ({
        index: part.index, sport: part.sport, entry_type: part.entryType, distance: part.distanceKm,
        performed_at: part.performedAt, started_at: part.startedAt, track: part.track,
      })),
      already_used: await commands.activityFileInUse(proposal.sha256),
      token,
      expires_at: new Date(expiresAt).toISOString(),
    };
  });

  app.post('/team/:id/activity-files/confirm', {
    preHandler: mustBeMember,
    schema: { params: TeamParams, body: ConfirmActivityFileBody, response: { 200: ConfirmActivityFileAnswer, ...errors } },
  }, async (request) => {
    const claims = verifyActivityFileToken(key, request.body.token, Date.now());
    if (claims.teamId !== Number(request.params.id) || claims.participantId !== request.actor.participantId) {
      throw new DomainError('FORBIDDEN', 'this proposal was made for another member');
    }
    const parts = chosenParts(claims, request.body);
    const result = await runCommand(commands, request, (command) => commands.addFileEntries({
      participantId: claims.participantId, format: claims.format, sha256: claims.sha256, parts,
    }, command), { checkedByCommand: true });
    return { success: true, entry: result.entries[0]!, entries: result.entries, position: result.position };
  });
};

/**
 * The entries the member confirms: every part of the token, each with the member's choices.
 * @throws DomainError INVALID_REQUEST (a part index the proposal has not, named twice, or a day
 *   for a part the file dated), INVALID_ENTRY_TYPE (a part without a type), INVALID_PERFORMED_AT
 *   (a part of a file without time and no day chosen).
 */
function chosenParts(claims: ActivityFileClaims, body: ConfirmActivityFileBody): { distance: number; entryType: string; performedAt: string }[] {
  const choices = new Map<number, NonNullable<ConfirmActivityFileBody['parts']>[number]>();
  for (const choice of body.parts ?? []) {
    if (choice.index >= claims.parts.length) throw new DomainError('INVALID_REQUEST', `the file has no part ${choice.index}`);
    if (choices.has(choice.index)) throw new DomainError('INVALID_REQUEST', `part ${choice.index} named twice`);
    choices.set(choice.index, choice);
  }
  return claims.parts.map((part, index) => {
    const choice = choices.get(index);
    const entryType = choice?.entry_type ?? body.entry_type ?? part.entryType;
    if (entryType === null) throw new DomainError('INVALID_ENTRY_TYPE', `part ${index} of the file has no sport: choose the type`);
    // The file's own day stands: only a file without time lets the member choose one.
    if (part.performedAt !== null && choice?.performed_at !== undefined) throw new DomainError('INVALID_REQUEST', `part ${index} has its day from the file`);
    const performedAt = part.performedAt ?? choice?.performed_at;
    if (performedAt === undefined) throw new DomainError('INVALID_PERFORMED_AT', `part ${index} of the file has no time: choose the day`);
    return { distance: part.distance, entryType, performedAt };
  });
}

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(activityFileRoutes, (deps: RouteDependencies) => ({ commands: deps.commands, jwtSecret: deps.jwtSecret, ...(deps.activityFileHeapMb ? { heapMb: deps.activityFileHeapMb } : {}) }));
