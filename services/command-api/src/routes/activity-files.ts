/**
 * Activity files, for a member of the team in the path only (401 UNAUTHORIZED
 * without a valid token, 403 FORBIDDEN for anyone else, an admin included: an entry from a file is
 * the member's own):
 *
 * - POST /team/{id}/activity-files: the raw bytes of ONE GPX, TCX or FIT file (Content-Type
 *   application/octet-stream, at most ACTIVITY_FILE_BODY_LIMIT; its name percent-encoded in
 *   ACTIVITY_FILE_NAME_HEADER) → its proposal (km, day in Europe/Tallinn, type from its sport, a
 *   thinned track), whether it counts for a live entry already, and a signed proposal token.
 *   Nothing is stored. Refusals: ACTIVITY_FILE_TOO_LARGE (413), ACTIVITY_FILE_NOT_SUPPORTED (415;
 *   another format or content type), ACTIVITY_FILE_UNREADABLE (400), ACTIVITY_FILE_EMPTY (400).
 * - POST /team/{id}/activity-files/confirm {token, entry_type?}: the proposal becomes an entry of
 *   the member by the entry command path (window, deadline, distance rules, Idempotency-Key), its
 *   source the file; the file's stream is appended in the same atomic append, so the same file is
 *   refused while its entry lives: ACTIVITY_FILE_ALREADY_USED (409). entry_type overrides the
 *   file's (required when the file had none: INVALID_ENTRY_TYPE).
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
  ConfirmActivityFileBody,
  EntryAnswer,
  ErrorAnswer,
} from '@sinilill/contracts';
import type { CommandService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';
import { ID_PATTERN } from '@sinilill/http';
import { readActivityFileOffThread } from '../activity-file-parser';
import { runCommand } from '../command-request';
import { ACTIVITY_FILE_TOKEN_SECONDS, activityFileTokenKey, signActivityFileToken, verifyActivityFileToken } from './activity-file-token';

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
    const expiresAt = Date.now() + ACTIVITY_FILE_TOKEN_SECONDS * 1000;
    const token = signActivityFileToken(key, {
      teamId: Number(request.params.id),
      participantId: request.actor.participantId!,
      sha256: proposal.sha256,
      format: proposal.format,
      distance: proposal.distanceKm,
      performedAt: proposal.performedAt,
      entryType: proposal.entryType,
      expiresAt,
    });
    reply.header('cache-control', 'no-store');
    return {
      file_name: fileName,
      format: proposal.format,
      sha256: proposal.sha256,
      distance: proposal.distanceKm,
      performed_at: proposal.performedAt,
      entry_type: proposal.entryType,
      track: proposal.track,
      already_used: await commands.activityFileInUse(proposal.sha256),
      token,
      expires_at: new Date(expiresAt).toISOString(),
    };
  });

  app.post('/team/:id/activity-files/confirm', {
    preHandler: mustBeMember,
    schema: { params: TeamParams, body: ConfirmActivityFileBody, response: { 200: EntryAnswer, ...errors } },
  }, async (request) => {
    const claims = verifyActivityFileToken(key, request.body.token, Date.now());
    if (claims.teamId !== Number(request.params.id) || claims.participantId !== request.actor.participantId) {
      throw new DomainError('FORBIDDEN', 'this proposal was made for another member');
    }
    const entryType = request.body.entry_type ?? claims.entryType;
    if (entryType === null) throw new DomainError('INVALID_ENTRY_TYPE', 'the file has no sport: choose the type');
    const result = await runCommand(commands, request, (command) => commands.addEntry({
      participantId: claims.participantId,
      distance: claims.distance,
      entryType,
      performedAt: claims.performedAt,
      source: { kind: 'file', format: claims.format, sha256: claims.sha256 },
    }, command), { checkedByCommand: true });
    return { success: true, entry: result.entry, position: result.position };
  });
};
