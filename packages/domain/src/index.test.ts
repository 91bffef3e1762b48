import { describe, expect, it } from 'vitest';
import * as domain from './index';

describe('@sinilill/domain public surface', () => {
  it('exports the rules, the deciders and the catalogue', () => {
    for (const name of [
      'ERROR_CODES',
      'DomainError',
      'isErrorCode',
      'streams',
      'ACTIVITY_TYPES',
      'SCHEMA_VERSIONS',
      'PERSONAL_DATA_FIELDS',
      'edition2025',
      'currentEdition',
      'validateRoute',
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
