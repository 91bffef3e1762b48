import { describe, expect, it } from 'vitest';
import { edition2025 } from '@sinilill/domain/seed';
import { assumedFees, describeAssumedFees, type ParticipantRow, type TeamRow } from './import-edition';

const team = (id: string, company?: string): TeamRow => ({
  id, team_name: `Tiim ${id}`, description: '', join_code: `CODE${id}`, created_at: '2025-03-01T00:00:00Z', ...(company ? { company } : {}),
});
const person = (id: string, teamId: string, birthYear: string, paid: boolean): ParticipantRow => ({
  id, full_name: `Inimene ${id}`, email: `p${id}@example.ee`, gender: 'FEMALE', birth_year: birthYear, team_id: teamId,
  is_paid: String(paid), is_captain: 'false', created_at: '2025-03-01T00:00:00Z',
});

describe('assumedFees (what an import assumes of paid marks)', () => {
  it('assumes 15 EUR born 2010 or earlier, 5 EUR born 2011 or later, the company fee in a company team; unknown without a birth year', () => {
    const fees = assumedFees({
      teams: [team('1'), team('2', 'true')],
      participants: [
        person('1', '1', '2010', true), person('2', '1', '2011', true), person('3', '1', '1980', false),
        person('4', '2', '2012', true), person('5', '1', '', true),
      ],
    }, edition2025);
    expect(fees).toEqual({ known: 3, knownCents: 1500 + 500 + 1500, unknown: 1 });
    expect(describeAssumedFees(fees)).toContain('35.00 EUR');
    expect(describeAssumedFees(fees)).toContain('1 of unknown amount');
  });
});
