import { describe, expect, it } from 'vitest';
import * as domain from './index';

describe('@sinilill/domain public surface', () => {
  it('compiles no edition in: editions come from the log', () => {
    expect(domain).not.toHaveProperty('currentEdition');
    expect(domain).not.toHaveProperty('edition2025');
  });

  it('exports the rules, the deciders and the catalogue', () => {
    for (const name of [
      'ERROR_CODES',
      'DomainError',
      'isErrorCode',
      'streams',
      'ACTIVITY_TYPES',
      'SCHEMA_VERSIONS',
      'PERSONAL_DATA_FIELDS',
      'validateRoute',
      'editionProblems',
      'assertValidEdition',
      'editionDecider',
      'EditionCatalog',
      'lifePhase',
      'isRegistrationOpen',
      'buildEdition',
      'prestige',
      'inLapDistance',
      'barMaximum',
      'lapPercentage',
      'blueFlowers',
      'distanceToNextFlower',
      'missionAt',
      'teamProgress',
      'toHundredths',
      'fromHundredths',
      'roundedKm',
      'hasAtMostTwoDecimals',
      'sumHundredths',
      'EntryLedger',
      'evolveLedgerEntry',
      'evolveEntryCount',
      'ENTRY_EVENT_TYPES',
      'entryLedgerHandlers',
      'drawEligibilityHandlers',
      'eligibleAsOfDeadline',
      'teamDistanceKm',
      'localDate',
      'parseInstant',
      'isValidCalendarDate',
      'isPerformedWithinEdition',
      'isEntryWindowOpen',
      'isPrivileged',
      'mayActForTeam',
      'textLength',
      'teamDecider',
      'createTeamDecider',
      'participantDecider',
      'createParticipantDecider',
      'GENDERS',
      'isPlausibleEmail',
      'normalizeEmail',
      'entryDecider',
      'createEntryDecider',
      'MAX_ENTRY_DISTANCE_KM',
      'ENTRY_TYPE_MAX',
    ]) {
      expect(domain, name).toHaveProperty(name);
    }
  });

  it('keeps the test helper out of the index', () => {
    expect(domain).not.toHaveProperty('deciderSpec');
  });
});
