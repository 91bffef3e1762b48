import { describe, expect, it } from 'vitest';
import { participantStream, teamStream } from './streams';

describe('teamStream, participantStream', () => {
  it('name the streams as the domain does', () => {
    expect(teamStream(' 12 ')).toBe('team-12');
    expect(participantStream('34')).toBe('participant-34');
  });
});
