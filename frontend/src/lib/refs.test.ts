import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { linkRef, refKey, refLabel, refOf, teamsToChoose, withTeam } from './refs';

describe('refs', () => {
  it('keys and labels tell two objects of one name apart', () => {
    expect(refKey(refOf('orders'))).toBe('orders');
    expect(refKey(refOf('orders', 'a'))).not.toBe(refKey(refOf('orders', 'b')));
    expect(refLabel(refOf('orders', 'a'))).toBe('orders (a)');
    expect(refLabel(refOf('orders'))).toBe('orders');
  });

  it('adds ?team= to a path, after any query it has', () => {
    expect(withTeam('/api/v1/pipelines/p', null)).toBe('/api/v1/pipelines/p');
    expect(withTeam('/api/v1/pipelines/p', 'a b')).toBe('/api/v1/pipelines/p?team=a%20b');
    expect(withTeam('/api/v1/pipelines/p/metrics?limit=5', 'a')).toBe('/api/v1/pipelines/p/metrics?limit=5&team=a');
  });

  it('links with the team only for a user in several teams', () => {
    expect(linkRef({ name: 'p', team: 'a' }, ['a'])).toEqual({ name: 'p', team: null });
    expect(linkRef({ name: 'p', team: 'a' }, ['a', 'b'])).toEqual({ name: 'p', team: 'a' });
  });

  it('reads which teams to choose from a team_required refusal only', () => {
    const refused = new ApiError('say which', { status: 400, code: 'team_required', details: { teams: ['a', 'b'] } });
    expect(teamsToChoose(refused)).toEqual(['a', 'b']);
    expect(teamsToChoose(new ApiError('no', { status: 404, code: 'not_found' }))).toBeNull();
    expect(teamsToChoose(new ApiError('odd', { status: 400, code: 'team_required', details: { teams: [1] } }))).toBeNull();
    expect(teamsToChoose(new Error('x'))).toBeNull();
  });
});
