import { Link } from './router';

interface Props {
  /** "pipeline" or "program". */
  what: string;
  name: string;
  teams: readonly string[];
  hrefFor: (team: string) => string;
}

/** Several of the user's teams have an object of this name and the address says no team: which one? */
export function TeamChoice({ what, name, teams, hrefFor }: Props) {
  return (
    <div className="placeholder" data-testid="team-choice">
      <p>
        Your teams {teams.join(', ')} each have a {what} named <span className="mono">{name}</span>. Which one?
      </p>
      <ul className="plain-list">
        {teams.map((team) => (
          <li key={team}>
            <Link to={hrefFor(team)} className="mono" data-testid="team-choice-link" data-team={team}>
              {name} of team {team}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
