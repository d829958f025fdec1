import type { PipelineState } from '../api/types';
import { stateTone } from '../lib/pipelineState';

interface Props {
  state: PipelineState | null;
  testId?: string;
}

/** The pipeline state as a coloured pill; the text is the state itself. */
export function StateBadge({ state, testId }: Props) {
  const tone = state === null ? 'idle' : stateTone(state);
  return (
    <span className={`badge badge-${tone}`} data-testid={testId} data-state={state ?? ''} role="status">
      {state ?? 'unknown'}
    </span>
  );
}
