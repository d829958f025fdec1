import { describe, expect, it } from 'vitest';
import { PIPELINE_STATES, type Pipeline, type PipelineState } from '../api/types';
import { actionTarget, enabledActions, isSettled, isTransitional, needsPolling, pollDelay, stateTone } from './pipelineState';

function enabledList(state: PipelineState | null): string[] {
  return Object.entries(enabledActions(state))
    .filter(([, on]) => on)
    .map(([action]) => action);
}

describe('enabledActions', () => {
  it.each<[PipelineState, string[]]>([
    ['stopped', ['start']],
    ['failed', ['start']],
    ['running', ['pause', 'stop']],
    ['paused', ['resume', 'stop']],
    ['starting', ['stop']],
    ['pausing', ['stop']],
    ['resuming', ['stop']],
    ['stopping', []],
  ])('%s enables %j', (state, expected) => {
    expect(enabledList(state)).toEqual(expected);
  });

  it('enables nothing before the state is known', () => {
    expect(enabledList(null)).toEqual([]);
  });

  it('covers every state the contract lists', () => {
    for (const s of PIPELINE_STATES) expect(() => enabledActions(s)).not.toThrow();
  });
});

describe('isSettled', () => {
  it('is false while the state is moving', () => {
    expect(isSettled({ state: 'starting', desired_state: 'running' })).toBe(false);
    expect(isSettled({ state: 'stopping', desired_state: 'stopped' })).toBe(false);
  });

  it('is false while the state has not yet left where it was', () => {
    expect(isSettled({ state: 'stopped', desired_state: 'running' })).toBe(false);
    expect(isSettled({ state: 'running', desired_state: 'paused' })).toBe(false);
  });

  it('is true once the desired state is reached, or on failure', () => {
    expect(isSettled({ state: 'running', desired_state: 'running' })).toBe(true);
    expect(isSettled({ state: 'paused', desired_state: 'paused' })).toBe(true);
    expect(isSettled({ state: 'failed', desired_state: 'running' })).toBe(true);
  });

  it('does not poll forever on a desired state it does not know', () => {
    expect(isSettled({ state: 'running', desired_state: 'something-new' as Pipeline['desired_state'] })).toBe(true);
  });
});

describe('isTransitional and stateTone', () => {
  it('marks the four moving states', () => {
    expect(PIPELINE_STATES.filter(isTransitional)).toEqual(['starting', 'pausing', 'resuming', 'stopping']);
  });

  it('gives each state a tone', () => {
    expect(stateTone('running')).toBe('ok');
    expect(stateTone('failed')).toBe('bad');
    expect(stateTone('starting')).toBe('busy');
    expect(stateTone('stopped')).toBe('idle');
  });
});

describe('pollDelay', () => {
  it('backs off as time passes', () => {
    expect(pollDelay(0)).toBe(500);
    expect(pollDelay(10_000)).toBe(1_000);
    expect(pollDelay(120_000)).toBe(5_000);
  });
});

describe('actionTarget and needsPolling', () => {
  it('names the state each action aims for', () => {
    expect([actionTarget('start'), actionTarget('pause'), actionTarget('resume'), actionTarget('stop')]).toEqual([
      'running',
      'paused',
      'running',
      'stopped',
    ]);
  });

  it('polls after an action until the target or a failure is reached', () => {
    expect(needsPolling({ state: 'stopped', desired_state: 'whatever' as Pipeline['desired_state'] }, 'running')).toBe(true);
    expect(needsPolling({ state: 'starting', desired_state: 'running' }, 'running')).toBe(true);
    expect(needsPolling({ state: 'running', desired_state: 'running' }, 'running')).toBe(false);
    expect(needsPolling({ state: 'failed', desired_state: 'running' }, 'running')).toBe(false);
  });

  it('without an action, polls only while unsettled', () => {
    expect(needsPolling({ state: 'running', desired_state: 'running' }, null)).toBe(false);
    expect(needsPolling({ state: 'stopping', desired_state: 'stopped' }, null)).toBe(true);
    expect(needsPolling({ state: 'stopped', desired_state: 'running' }, null)).toBe(true);
  });
});
