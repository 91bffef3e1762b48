/**
 * Entry commands (spec §7): POST /entry, PUT /entry/{id}/edit, PUT /entry/delete. Each answer
 * carries `position`, the global position of the command's last event, for read-your-writes.
 * With an Idempotency-Key a repeat answers as the first request did; the key reused for another
 * request answers 422 IDEMPOTENCY_KEY_REUSED (runCommand, docs/decisions/0007).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import {
  AddEntryBody,
  DeleteEntriesAnswer,
  DeleteEntriesBody,
  EditEntryBody,
  EntryAnswer,
  ErrorAnswer,
  idOf,
} from '@sinilill/contracts';
import type { CommandService, EchoedEntryFields } from '@sinilill/commands';
import { ID_PATTERN, routeFile } from '@sinilill/http';
import { runCommand } from '../command-request';
import type { RouteDependencies } from '../dependencies';

export interface EntryRouteOptions {
  commands: CommandService;
}


/** The entry commands make the repeat check themselves, in their first read. */
const CHECKED = { checkedByCommand: true } as const;

const errors = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer, 422: ErrorAnswer };

/** The echoed §3 fields of an entry body, as the command service compares them. */
function echoedOf(body: AddEntryBody | EditEntryBody): { echoed?: EchoedEntryFields } {
  const echoed: EchoedEntryFields = {
    ...(body.id !== undefined ? { id: body.id } : {}),
    ...(body.team_id !== undefined ? { team_id: body.team_id } : {}),
    ...(body.created_at !== undefined ? { created_at: body.created_at } : {}),
    ...(body.participant !== undefined ? { participantFullName: body.participant.full_name } : {}),
    ...(body.team !== undefined ? { teamName: body.team.team_name } : {}),
  };
  return Object.keys(echoed).length > 0 ? { echoed } : {};
}

export const entryRoutes: FastifyPluginAsyncTypebox<EntryRouteOptions> = async (app, { commands }) => {
  app.addHook('onRequest', app.authenticate);

  app.post('/entry', { schema: { body: AddEntryBody, response: { 200: EntryAnswer, ...errors } } }, async (request) => {
    const body = request.body;
    const result = await runCommand(commands, request, (command) => commands.addEntry({
      ...(body.participant_id !== undefined ? { participantId: body.participant_id } : {}),
      distance: body.distance, entryType: body.entry_type, performedAt: body.performed_at, ...echoedOf(body),
    }, command), CHECKED);
    return { success: true, entry: result.entry, position: result.position };
  });

  app.put('/entry/:id/edit', {
    schema: { params: Type.Object({ id: Type.String({ pattern: ID_PATTERN }) }), body: EditEntryBody, response: { 200: EntryAnswer, ...errors } },
  }, async (request) => {
    const body = request.body;
    const result = await runCommand(commands, request, (command) => commands.editEntry(Number(request.params.id), {
      ...(body.participant_id !== undefined ? { participantId: body.participant_id } : {}),
      distance: body.distance, entryType: body.entry_type, performedAt: body.performed_at, ...echoedOf(body),
    }, command), CHECKED);
    return { success: true, entry: result.entry, position: result.position };
  });

  app.put('/entry/delete', { schema: { body: DeleteEntriesBody, response: { 200: DeleteEntriesAnswer, ...errors } } }, async (request) => {
    const result = await runCommand(commands, request, (command) => commands.deleteEntries(request.body.ids.map(idOf), command), CHECKED);
    return { success: true, count: result.count, position: result.position };
  });
};

/** Served under /api by being in routes/ (route-files.ts). */
export default routeFile(entryRoutes, (deps: RouteDependencies) => ({ commands: deps.commands }));
