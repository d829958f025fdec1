import { describe, expect, it } from 'vitest';
import { pipelineFromSearch } from './query';

describe('pipelineFromSearch', () => {
  it('reads ?pipeline=NAME', () => {
    expect(pipelineFromSearch('?pipeline=orders_live')).toBe('orders_live');
    expect(pipelineFromSearch('?x=1&pipeline=a%20b')).toBe('a b');
  });

  it('defaults to demo when absent or blank', () => {
    expect(pipelineFromSearch('')).toBe('demo');
    expect(pipelineFromSearch('?pipeline=')).toBe('demo');
    expect(pipelineFromSearch('?pipeline=%20')).toBe('demo');
  });
});
