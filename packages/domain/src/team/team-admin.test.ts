/** The administrator's team commands: RenameTeam, DeleteTeam, and a deleted team. */
import { describe, it } from 'vitest';
import type { TeamDeleted, TeamRegistered } from '../events';
import { adminActor, deciderSpec, participantActor, systemActor, testContext } from '../testing';
import { teamDecider, type TeamCommand } from './decider';

const { given } = deciderSpec(teamDecider);
const now = '2025-04-12T10:00:00.000Z';
const admin = testContext({ now, actor: adminActor });
const system = testContext({ now, actor: systemActor });
const member = testContext({ now, actor: participantActor(3, 7) });

const registered: TeamRegistered = {
  type: 'TeamRegistered',
  data: { edition: 2025, teamId: 7, teamName: 'Tartu Tammed', description: '', joinCode: 'ABC123', icon: null, registeredAt: '2025-03-01T10:00:00.000Z' },
};
const deleted: TeamDeleted = { type: 'TeamDeleted', data: { teamId: 7, deletedAt: now } };
const rename = (teamName: string, teamId = 7): TeamCommand => ({ type: 'RenameTeam', data: { teamId, teamName } });
const remove = (teamId = 7): TeamCommand => ({ type: 'DeleteTeam', data: { teamId } });

describe('RenameTeam', () => {
  it('renames the team at ctx.now, the name trimmed', () => {
    given([registered]).when(rename('  Tartu Tammed II '), admin)
      .then([{ type: 'TeamRenamed', data: { teamId: 7, teamName: 'Tartu Tammed II', renamedAt: now } }]);
  });

  it('decides nothing when the name is the current one', () => {
    given([registered]).when(rename('Tartu Tammed'), admin).then([]);
  });

  it('is for administrators only: a member of the team is FORBIDDEN', () => {
    given([registered]).when(rename('Uus nimi'), member).then('FORBIDDEN');
    given([registered]).when(rename('Uus nimi'), system).then([{ type: 'TeamRenamed', data: { teamId: 7, teamName: 'Uus nimi', renamedAt: now } }]);
  });

  it('refuses a name over 50 characters (VALUE_TOO_LONG) and a blank one (INVALID_REQUEST)', () => {
    given([registered]).when(rename('x'.repeat(51)), admin).then('VALUE_TOO_LONG');
    given([registered]).when(rename('x'.repeat(50)), admin).then([{ type: 'TeamRenamed', data: { teamId: 7, teamName: 'x'.repeat(50), renamedAt: now } }]);
    given([registered]).when(rename('   '), admin).then('INVALID_REQUEST');
  });

  it('answers NOT_FOUND for an unknown or deleted team', () => {
    given([]).when(rename('Uus nimi'), admin).then('NOT_FOUND');
    given([registered, deleted]).when(rename('Uus nimi'), admin).then('NOT_FOUND');
  });
});

describe('DeleteTeam', () => {
  it('deletes the team at ctx.now', () => {
    given([registered]).when(remove(), admin).then([deleted]);
  });

  it('is for administrators only', () => {
    given([registered]).when(remove(), member).then('FORBIDDEN');
  });

  it('answers NOT_FOUND for an unknown or already deleted team', () => {
    given([]).when(remove(), admin).then('NOT_FOUND');
    given([registered, deleted]).when(remove(), admin).then('NOT_FOUND');
  });
});

describe('a deleted team', () => {
  it('refuses every other command with NOT_FOUND, and its id cannot be registered again', () => {
    given([registered, deleted]).when({ type: 'ChangeTeamPublicAttributes', data: { teamId: 7, description: 'x' } }, admin).then('NOT_FOUND');
    given([registered, deleted]).when({ type: 'ReplaceJoinCode', data: { teamId: 7, joinCode: 'NEW123' } }, member).then('NOT_FOUND');
    given([registered, deleted])
      .when({ type: 'RegisterTeam', data: { teamId: 7, teamName: 'Again', description: '', joinCode: 'X1', icon: null } }, system)
      .then('ALREADY_EXISTS');
  });

  it('folds to deleted: true', () => {
    given([registered]).when(remove(), admin).thenState({ edition: 2025,
      exists: true, teamId: 7, teamName: 'Tartu Tammed', description: '', joinCode: 'ABC123', icon: null,
      registeredAt: '2025-03-01T10:00:00.000Z', deleted: true,
    });
  });
});
