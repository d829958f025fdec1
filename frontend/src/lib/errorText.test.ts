import { describe, expect, it } from 'vitest';
import { errorParts, lineCount } from './errorText';

describe('errorParts', () => {
  it('keeps a one-line error whole', () => {
    expect(errorParts("runner did not reach 'running' in time")).toEqual({
      headline: "runner did not reach 'running' in time",
      detail: '',
    });
  });

  it('splits the sentence from the runner log under it', () => {
    const text = 'Spark runner exited unexpectedly\nTraceback (most recent call last):\n  File "x.py", line 1\nBoom\n';
    expect(errorParts(text)).toEqual({
      headline: 'Spark runner exited unexpectedly',
      detail: 'Traceback (most recent call last):\n  File "x.py", line 1\nBoom',
    });
    expect(lineCount(errorParts(text).detail)).toBe(3);
  });

  it('ignores blank lines around the text', () => {
    expect(errorParts('\n  died\n\n\nlog line\n')).toEqual({ headline: 'died', detail: 'log line' });
    expect(lineCount('')).toBe(0);
  });
});
