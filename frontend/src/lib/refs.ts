/**
 * Names of programs and pipelines are unique within a team only: a user in two
 * teams may see two pipelines called `orders`. A `Ref` is a name and, when it
 * has to be said, its team; the API takes the team as `?team=` on every route
 * keyed by a name (docs/api.md, "Teams and names").
 */
import { ApiError } from '../api/client';

export interface Ref {
  name: string;
  /** null: the server finds the name among all of the user's teams. */
  team: string | null;
}

/** A name alone, or a name in a team. */
export const refOf = (name: string, team: string | null = null): Ref => ({ name, team });

/** A key that tells objects of one name apart (React keys, selections, maps). */
export function refKey(ref: Ref): string {
  return ref.team === null ? ref.name : `${ref.team}/${ref.name}`;
}

/** What the page shows for an object: its name, with its team when that must be said. */
export function refLabel(ref: Ref): string {
  return ref.team === null ? ref.name : `${ref.name} (${ref.team})`;
}

/** `path` with `?team=` (or `&team=`) when the ref names a team. */
export function withTeam(path: string, team: string | null): string {
  if (team === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}team=${encodeURIComponent(team)}`;
}

/**
 * The ref a link to `object` should carry: its team when the user is in several
 * teams (so the link stays right should another of them take the name too),
 * its name alone otherwise.
 */
export function linkRef(object: { name: string; team: string }, userTeams: readonly string[]): Ref {
  return { name: object.name, team: userTeams.length > 1 ? object.team : null };
}

/** The user's teams that have the name, when a call was refused for not saying which (400 team_required). */
export function teamsToChoose(err: unknown): string[] | null {
  if (!(err instanceof ApiError) || err.code !== 'team_required') return null;
  const details = err.details as { teams?: unknown } | null;
  const teams = details?.teams;
  if (!Array.isArray(teams)) return null;
  const names = teams.filter((t): t is string => typeof t === 'string');
  return names.length === teams.length ? names : null;
}
