import { edition2025 } from '@sinilill/domain/seed';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheEditions, clearEditions } from '../../../lib/test-editions';
import { batches, checkFullName, checkTeamDraft, teamBody, teamDraft } from './edit-forms';

// The limits are the site edition's, read from the query cache once GET /api/editions answered.
beforeAll(() => cacheEditions(edition2025));
afterAll(clearEditions);

describe('checkFullName', () => {
  it('requires a name of at most 32 characters (after trimming)', () => {
    expect(checkFullName('Mari Maasikas')).toEqual({});
    expect(checkFullName('   ')).toEqual({ full_name: { kind: 'required' } });
    expect(checkFullName('x'.repeat(32))).toEqual({});
    expect(checkFullName(` ${'x'.repeat(32)} `)).toEqual({});
    expect(checkFullName('x'.repeat(33))).toEqual({ full_name: { kind: 'tooLong', max: 32 } });
  });
});

describe('checkTeamDraft', () => {
  const ok = { team_name: 'Tartu Tammed', description: '', icon: null };

  it('requires a name of at most 50; a description is optional, at most 256', () => {
    expect(checkTeamDraft(ok)).toEqual({});
    expect(checkTeamDraft({ ...ok, team_name: ' ' })).toEqual({ team_name: { kind: 'required' } });
    expect(checkTeamDraft({ ...ok, team_name: 'x'.repeat(51) })).toEqual({ team_name: { kind: 'tooLong', max: 50 } });
    expect(checkTeamDraft({ ...ok, description: 'õ'.repeat(256) })).toEqual({});
    expect(checkTeamDraft({ ...ok, description: 'õ'.repeat(257) })).toEqual({ description: { kind: 'tooLong', max: 256 } });
  });
});

describe('teamBody', () => {
  const team = { id: 3, name: 'Tammed', description: 'Käime', icon: '/media/teams/3.png' };

  it('given an unchanged picture, then no icon field (it stays)', () => {
    expect(teamBody(team, { ...teamDraft(team), team_name: ' Tammed 2 ' })).toEqual({ id: 3, team_name: 'Tammed 2', description: 'Käime' });
  });

  it('given a new picture, then its data URL; given a deleted one, then null', () => {
    expect(teamBody(team, { ...teamDraft(team), icon: 'data:image/png;base64,AAAA' }).icon).toBe('data:image/png;base64,AAAA');
    const deleted = teamBody(team, { ...teamDraft(team), icon: null });
    expect(deleted).toHaveProperty('icon', null);
  });

  it('given a team without a picture left without one, then no icon field', () => {
    expect(teamBody({ ...team, icon: null }, teamDraft({ ...team, icon: null }))).not.toHaveProperty('icon');
  });
});

describe('batches', () => {
  it('cuts ids into batches of at most 500', () => {
    expect(batches([])).toEqual([]);
    expect(batches([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
    const ids = Array.from({ length: 1001 }, (_, i) => i);
    expect(batches(ids).map((batch) => batch.length)).toEqual([500, 500, 1]);
  });
});
