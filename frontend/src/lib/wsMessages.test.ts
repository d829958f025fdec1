import { describe, expect, it } from 'vitest';
import { parseServerMessage } from './wsMessages';

describe('parseServerMessage', () => {
  it('parses a delta and normalises its changes', () => {
    const raw = JSON.stringify({
      type: 'delta',
      step: 3,
      view: 'big_orders',
      changes: [{ insert: { id: 1 } }, { delete: { id: 2 } }, { id: 3 }],
    });
    expect(parseServerMessage(raw)).toEqual({
      type: 'delta',
      step: 3,
      view: 'big_orders',
      changes: [
        { kind: 'insert', row: { id: 1 } },
        { kind: 'delete', row: { id: 2 } },
        { kind: 'insert', row: { id: 3 } },
      ],
    });
  });

  it('drops changes that are not objects but keeps the rest of the delta', () => {
    const msg = parseServerMessage({ type: 'delta', step: 1, view: 'v', changes: [5, { insert: { a: 1 } }] });
    expect(msg).toEqual({ type: 'delta', step: 1, view: 'v', changes: [{ kind: 'insert', row: { a: 1 } }] });
  });

  it('parses a state message', () => {
    expect(parseServerMessage('{"type":"state","state":"running","error":null}')).toEqual({
      type: 'state',
      state: 'running',
      error: null,
    });
    expect(parseServerMessage({ type: 'state', state: 'failed', error: 'boom' })).toEqual({
      type: 'state',
      state: 'failed',
      error: 'boom',
    });
  });

  it('reads a missing or empty error as null', () => {
    expect(parseServerMessage({ type: 'state', state: 'paused' })).toEqual({ type: 'state', state: 'paused', error: null });
    expect(parseServerMessage({ type: 'state', state: 'paused', error: '' })).toMatchObject({ error: null });
  });

  it('rejects an unknown state', () => {
    expect(parseServerMessage({ type: 'state', state: 'exploded', error: null })).toBeNull();
  });

  it('rejects deltas with a bad step, view or changes', () => {
    expect(parseServerMessage({ type: 'delta', step: -1, view: 'v', changes: [] })).toBeNull();
    expect(parseServerMessage({ type: 'delta', step: 1.5, view: 'v', changes: [] })).toBeNull();
    expect(parseServerMessage({ type: 'delta', step: '2', view: 'v', changes: [] })).toBeNull();
    expect(parseServerMessage({ type: 'delta', step: 2, view: '', changes: [] })).toBeNull();
    expect(parseServerMessage({ type: 'delta', step: 2, view: 'v', changes: {} })).toBeNull();
  });

  it('parses a pipeline event with who did it', () => {
    const raw = {
      type: 'event',
      id: 7,
      from_state: 'stopped',
      to_state: 'starting',
      actor: 'ada (key 0a1b2c)',
      message: '',
      created_at: '2026-01-01T10:00:00+00:00',
    };
    expect(parseServerMessage(JSON.stringify(raw))).toEqual({
      type: 'event',
      id: 7,
      fromState: 'stopped',
      toState: 'starting',
      actor: 'ada (key 0a1b2c)',
      message: '',
      createdAt: '2026-01-01T10:00:00+00:00',
    });
    expect(parseServerMessage({ ...raw, to_state: 'exploded' })).toBeNull();
    expect(parseServerMessage({ ...raw, actor: null })).toBeNull();
  });

  it('ignores unknown types and non-JSON text', () => {
    expect(parseServerMessage({ type: 'metrics', rows: 5 })).toBeNull();
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage('[1,2]')).toBeNull();
    expect(parseServerMessage(null)).toBeNull();
  });

  it('keeps the run a delta or a state belongs to', () => {
    expect(parseServerMessage({ type: 'delta', run: 2, step: 1, view: 'v', changes: [] })).toEqual({
      type: 'delta',
      run: 2,
      step: 1,
      view: 'v',
      changes: [],
    });
    expect(parseServerMessage({ type: 'state', state: 'running', error: null, run: 3 })).toMatchObject({ run: 3 });
    expect(parseServerMessage({ type: 'delta', run: 0, step: 1, view: 'v', changes: [] })).toBeNull();
    expect(parseServerMessage({ type: 'state', state: 'running', run: 'x' })).toBeNull();
  });

  it('parses a reset: a new run began', () => {
    expect(parseServerMessage('{"type":"reset","run":2}')).toEqual({ type: 'reset', run: 2 });
    expect(parseServerMessage({ type: 'reset' })).toBeNull();
    expect(parseServerMessage({ type: 'reset', run: 1.5 })).toBeNull();
  });
});
