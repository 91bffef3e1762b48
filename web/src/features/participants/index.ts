export { ParticipantsPage } from './components/participants-page';
