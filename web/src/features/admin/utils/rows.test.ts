import type { AdminEntry, AdminTeam, AdminUser } from '@sinilill/contracts';
import { describe, expect, it } from 'vitest';
import { entryRows, filterChoices, teamRows, userChoices, userRows } from './rows';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

function user(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: A,
    email: 'mari@example.ee',
    is_approved: true,
    role: 'USER',
    participant_id: 7,
    created_at: '2025-03-01T08:00:00.000Z',
    participant: {
      id: 7,
      full_name: 'Mari Maasikas',
      is_paid: false,
      created_at: '2025-03-02T09:30:15.000Z',
      team: { id: 3, team_name: 'Tartu Tammed' },
    },
    ...overrides,
  };
}

describe('userRows', () => {
  it('given a participant, then its name, team, payment and registration time', () => {
    expect(userRows([user()])).toEqual([
      {
        id: A,
        email: 'mari@example.ee',
        fullName: 'Mari Maasikas',
        teamName: 'Tartu Tammed',
        participantId: 7,
        isPaid: false,
        isApproved: true,
        createdAt: '2025-03-02T09:30:15.000Z',
        createdMs: Date.UTC(2025, 2, 2, 9, 30, 15),
      },
    ]);
  });

  it('given an account without a participant (an admin), then nothing to pay and the account time', () => {
    const [row] = userRows([user({ role: 'ADMIN', participant_id: null, participant: null })]);
    expect(row).toMatchObject({ fullName: null, teamName: null, participantId: null, isPaid: null, createdAt: '2025-03-01T08:00:00.000Z' });
  });

  it('given an erased person or a participant without a team, then nulls (never a crash)', () => {
    const base = user();
    const erased = user({ email: null, participant: { ...base.participant!, full_name: null, team: null } });
    expect(userRows([erased])[0]).toMatchObject({ email: null, fullName: null, teamName: null, participantId: 7 });
  });

  it('given an unreadable time, then no sort value', () => {
    expect(userRows([user({ participant: null, created_at: 'garbage' })])[0]?.createdMs).toBeNull();
  });
});

describe('teamRows', () => {
  const team: AdminTeam = {
    id: 3,
    team_name: 'Tartu Tammed',
    icon: 'https://example.ee/icon.png',
    description: 'Käime koos',
    join_code: 'abc',
    participant_count: 5,
    distance: 1234,
    created_at: '2025-03-01T08:00:00.000Z',
  };

  it('given a team, then its fields flat', () => {
    expect(teamRows([team])).toEqual([
      {
        id: 3,
        name: 'Tartu Tammed',
        icon: 'https://example.ee/icon.png',
        description: 'Käime koos',
        joinCode: 'abc',
        participantCount: 5,
        distance: 1234,
        createdAt: '2025-03-01T08:00:00.000Z',
        createdMs: Date.UTC(2025, 2, 1, 8),
      },
    ]);
  });

  it('given an empty picture or no code, then the default flower and null', () => {
    expect(teamRows([{ ...team, icon: '  ', join_code: null }])[0]).toMatchObject({ icon: null, joinCode: null });
    expect(teamRows([{ ...team, icon: null }])[0]?.icon).toBeNull();
  });
});

describe('entryRows', () => {
  it('given an entry, then the person and team names beside it; erased ones as null', () => {
    const entry: AdminEntry = {
      id: 11,
      team_id: 3,
      participant_id: 7,
      distance: 12.5,
      entry_type: 'WALK',
      performed_at: '2025-04-03',
      created_at: '2025-04-03T10:00:00.000Z',
      participant: { full_name: null },
      team: { team_name: 'Tartu Tammed' },
    };
    expect(entryRows([entry])).toEqual([
      {
        id: 11,
        fullName: null,
        teamName: 'Tartu Tammed',
        distance: 12.5,
        entryType: 'WALK',
        performedAt: '2025-04-03',
        createdAt: '2025-04-03T10:00:00.000Z',
        createdMs: Date.UTC(2025, 3, 3, 10),
      },
    ]);
  });
});

describe('userChoices', () => {
  it('lists accounts with an e-mail alphabetically, case ignored, erased ones left out', () => {
    const users = [
      { id: A, email: 'zeta@example.ee' },
      { id: B, email: null },
      { id: C, email: 'Anna@example.ee' },
      { id: B, email: 'jaan@example.ee' },
    ];
    expect(userChoices(users, 'en').map((choice) => choice.email)).toEqual(['Anna@example.ee', 'jaan@example.ee', 'zeta@example.ee']);
  });

  it('follows the Estonian alphabet in Estonian (z after s)', () => {
    const users = [
      { id: A, email: 'zoja@example.ee' },
      { id: B, email: 'tiit@example.ee' },
      { id: C, email: 'sass@example.ee' },
    ];
    expect(userChoices(users, 'et').map((choice) => choice.email)).toEqual(['sass@example.ee', 'zoja@example.ee', 'tiit@example.ee']);
  });
});

describe('filterChoices', () => {
  const choices = [
    { id: A, email: 'anna@example.ee' },
    { id: B, email: 'jaan@tamm.ee' },
    { id: C, email: 'mari@tamm.ee' },
  ];

  it('keeps the e-mails that contain the query, case and spaces ignored', () => {
    expect(filterChoices(choices, '  TAMM ', 'et').map((choice) => choice.id)).toEqual([B, C]);
    expect(filterChoices(choices, '', 'et')).toEqual(choices);
    expect(filterChoices(choices, 'nobody', 'et')).toEqual([]);
  });

  it('always keeps the selected choice', () => {
    expect(filterChoices(choices, 'tamm', 'et', A).map((choice) => choice.id)).toEqual([A, B, C]);
  });
});
