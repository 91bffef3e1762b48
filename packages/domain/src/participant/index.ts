export {
  participantDecider,
  createParticipantDecider,
  GENDERS,
  isPlausibleEmail,
  normalizeEmail,
} from './decider';
export type { RegisterParticipant, MarkPayment, ParticipantCommand, ParticipantState } from './decider';
