import { Type } from 'typebox';
import { describe, expect, test } from 'vitest';
import { asOpenApi31 } from './api-docs';
import { API_OPERATIONS, API_TAGS, operationIdOf } from './api-operations';

describe('operationIdOf: stable ids from the route', () => {
  test('method, static segments, a trailing parameter as By<Name>', () => {
    expect(operationIdOf('GET', '/api/stats')).toBe('getStats');
    expect(operationIdOf('GET', '/api/team/{id}/entries')).toBe('getTeamEntries');
    expect(operationIdOf('GET', '/api/team/{id}')).toBe('getTeamById');
    expect(operationIdOf('PUT', '/api/admin/deleteentities/{entity}')).toBe('putAdminDeleteentitiesByEntity');
    expect(operationIdOf('GET', '/api/admin/history/team/{id}/as-of')).toBe('getAdminHistoryTeamAsOf');
    expect(operationIdOf('GET', '/api/participant/{id}/certificate.pdf')).toBe('getParticipantCertificatePdf');
    expect(operationIdOf('DELETE', '/api/me/strava/proposals/{activityId}')).toBe('deleteMeStravaProposalsByActivityId');
  });

  test('the map\'s keys give ids that differ, and its tags are declared', () => {
    const ids = Object.entries(API_OPERATIONS).map(([key, text]) => text.operationId ?? operationIdOf(key.split(' ')[0]!, key.split(' ')[1]!));
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const declared = new Set(API_TAGS.map((tag) => tag.name));
    expect(Object.entries(API_OPERATIONS).filter(([, text]) => text.tags.some((tag) => !declared.has(tag))).map(([key]) => key)).toEqual([]);
    expect(Object.entries(API_OPERATIONS).filter(([, text]) => text.summary.trim() === '' || text.description.trim() === '').map(([key]) => key)).toEqual([]);
  });
});

describe('asOpenApi31: schemas as JSON Schema 2020-12 writes them', () => {
  test('a TypeBox tuple becomes prefixItems with items: false, nested too; the original is left as it was', () => {
    const schema = Type.Object({ track: Type.Array(Type.Tuple([Type.Number(), Type.Number()])) });
    const before = JSON.stringify(schema);
    const converted = asOpenApi31(schema) as { properties: { track: { items: Record<string, unknown> } } };
    expect(converted.properties.track.items).toEqual({ type: 'array', minItems: 2, prefixItems: [{ type: 'number' }, { type: 'number' }], items: false });
    expect(JSON.stringify(converted)).not.toContain('additionalItems');
    expect(JSON.stringify(schema)).toBe(before);
  });

  test('a tuple with a schema for the rest keeps it as items; an ordinary array is untouched', () => {
    expect(asOpenApi31({ type: 'array', items: [{ type: 'string' }], additionalItems: { type: 'number' } }))
      .toEqual({ type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'number' } });
    expect(asOpenApi31({ type: 'array', items: [{ type: 'string' }] })).toEqual({ type: 'array', prefixItems: [{ type: 'string' }] });
    expect(asOpenApi31({ type: 'array', items: { type: 'string' } })).toEqual({ type: 'array', items: { type: 'string' } });
  });
});
