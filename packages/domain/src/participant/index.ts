export {
  participantDecider,
  createParticipantDecider,
  GENDERS,
  isPlausibleEmail,
  normalizeEmail,
} from './decider';
export type { RegisterParticipant, MarkPayment, RenameParticipant, DeleteParticipant, ParticipantCommand, ParticipantState } from './decider';
