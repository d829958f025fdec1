import { describe, expect, it } from 'vitest';
import { isModEnter } from './keys';

const key = (over: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; key: string }>) => ({
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  key: 'Enter',
  ...over,
});

describe('isModEnter', () => {
  it('is Ctrl or Cmd with Enter, nothing else', () => {
    expect(isModEnter(key({ ctrlKey: true }))).toBe(true);
    expect(isModEnter(key({ metaKey: true }))).toBe(true);
    expect(isModEnter(key({}))).toBe(false);
    expect(isModEnter(key({ ctrlKey: true, altKey: true }))).toBe(false);
    expect(isModEnter(key({ ctrlKey: true, key: 'a' }))).toBe(false);
  });
});
