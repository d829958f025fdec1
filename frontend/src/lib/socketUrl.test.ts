import { describe, expect, it } from 'vitest';
import { pipelineSocketUrl, reconnectDelay } from './socketUrl';

describe('pipelineSocketUrl', () => {
  it('uses ws: on http and the same host', () => {
    expect(pipelineSocketUrl({ protocol: 'http:', host: '127.0.0.1:8000' }, 'demo', null)).toBe(
      'ws://127.0.0.1:8000/ws/pipelines/demo/',
    );
  });

  it('uses wss: on https', () => {
    expect(pipelineSocketUrl({ protocol: 'https:', host: 'weir.example' }, 'demo', null)).toBe(
      'wss://weir.example/ws/pipelines/demo/',
    );
  });

  it('asks for the deltas after the last step seen', () => {
    expect(pipelineSocketUrl({ protocol: 'http:', host: 'h' }, 'demo', 17)).toBe('ws://h/ws/pipelines/demo/?after_step=17');
    expect(pipelineSocketUrl({ protocol: 'http:', host: 'h' }, 'demo', 0)).toBe('ws://h/ws/pipelines/demo/?after_step=0');
  });

  it('says which run the step counts in, and which team the name means', () => {
    const at = { protocol: 'http:', host: 'h' };
    expect(pipelineSocketUrl(at, 'demo', 17, { run: 2 })).toBe('ws://h/ws/pipelines/demo/?after_step=17&run=2');
    expect(pipelineSocketUrl(at, 'demo', null, { run: 2, team: 'a b' })).toBe('ws://h/ws/pipelines/demo/?team=a+b');
    expect(pipelineSocketUrl(at, 'demo', 0, { run: null, team: 'x' })).toBe('ws://h/ws/pipelines/demo/?after_step=0&team=x');
  });

  it('escapes the pipeline name', () => {
    expect(pipelineSocketUrl({ protocol: 'http:', host: 'h' }, 'a b/c', null)).toBe('ws://h/ws/pipelines/a%20b%2Fc/');
  });
});

describe('reconnectDelay', () => {
  it('doubles from half a second and caps at ten seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(reconnectDelay)).toEqual([500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
  });
});
