/**
 * The team icon handling shared by PUT /team/{id}/publicattributes (members) and PUT
 * /admin/team/{id} (administrators): a data URL is judged by content, re-encoded and stored in
 * the media store (docs/decisions/0014); the event records only the reference.
 */
import type { FastifyError } from 'fastify';
import { MAX_IMAGE_SIZE_LABEL } from '@sinilill/contracts';
import type { CommandService } from '@sinilill/commands';
import { DomainError } from '@sinilill/domain';
import { decodeDataUrl, isDataUrl, processTeamIcon, type MediaStore } from '@sinilill/media';

/**
 * The icon to record for a requested `icon`: undefined (keep) when absent or equal to the team's
 * current icon, null to remove, or the stored reference (`/api/images/<sha256>.webp`) of an
 * uploaded data URL.
 * @throws DomainError INVALID_REQUEST (any other string, or no media store), NOT_FOUND (unknown
 *   or deleted team), NOT_ALLOWED_FILE_TYPE, MAX_IMAGE_SIZE (see processTeamIcon, decodeDataUrl).
 */
export async function iconReference(
  icon: string | null | undefined,
  teamId: number,
  commands: CommandService,
  media: MediaStore | undefined,
): Promise<string | null | undefined> {
  if (icon === undefined || icon === null) return icon;
  // Compared first: a client that sends the card back as it got it changes nothing, whatever
  // the current icon is (an imported URL included).
  const team = await commands.team(teamId);
  if (!team.exists || team.deleted) throw new DomainError('NOT_FOUND', `team ${teamId}`);
  if (icon === team.icon) return undefined;
  if (!isDataUrl(icon)) throw new DomainError('INVALID_REQUEST', 'icon must be a data URL, null, or the current icon');
  if (!media) throw new DomainError('INVALID_REQUEST', 'icon uploads are not served here');
  const image = await processTeamIcon(decodeDataUrl(icon).bytes);
  return (await media.put(image)).url;
}

/**
 * Route error handler of the routes that take an icon: a body over the route's limit is an image
 * over the limit (the rest of the body is tiny), answered as spec §5 does (MAX_IMAGE_SIZE + 5MB);
 * everything else goes on to the shared handler.
 */
export function iconBodyTooLarge(error: FastifyError): never {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new DomainError('MAX_IMAGE_SIZE', MAX_IMAGE_SIZE_LABEL);
  throw error;
}
