/** Bulk import through the same deciders (issue 15 item 6): see bulk-import.ts. */
export {
  BulkImporter,
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
} from './bulk-import';
export { reserveAccountRows, type EmailRowReservation, type RefusedReservation, type TeamRowReservation } from './account-rows';
export { readStreams } from './stored-streams';
