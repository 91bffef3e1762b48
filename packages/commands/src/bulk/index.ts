/**
 * Bulk import through the same deciders: see bulk-import.ts (batching and
 * appending), bulk-decide.ts (deciding in memory) and bulk-types.ts (commands, options, results).
 */
export { BulkImporter } from './bulk-import';
export {
  BulkImportStopped,
  accountUserId,
  type BulkAddEntry,
  type BulkCommand,
  type BulkImporterOptions,
  type BulkMarkPayment,
  type BulkRegisterParticipant,
  type BulkRegisterTeam,
  type BulkRunResult,
  type BulkTimings,
} from './bulk-types';
export { reserveAccountRows, type EmailRowReservation, type RefusedReservation, type TeamRowReservation } from './account-rows';
export { readStreams } from './stored-streams';
