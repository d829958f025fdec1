import { describe, expect, it } from 'vitest';
import { BUILTIN_FUNCTIONS, DIALECT_KEYWORDS, KEYWORDS, TYPE_KEYWORDS, monarchLanguage } from './weirSql';

describe('weir-sql keyword lists', () => {
  it('covers the dialect words from the spec', () => {
    for (const word of ['STREAM', 'LATENESS', 'WATERMARK', 'EMIT_FINAL', 'PUMP', 'ROWTIME', 'TUMBLE', 'HOP', 'SNAPSHOT',
      'TO_CHANGELOG', 'FROM_CHANGELOG', 'SEARCH_KEY', 'LATERAL']) {
      expect(DIALECT_KEYWORDS).toContain(word);
    }
  });

  it('puts each word in exactly one class, so the colour is predictable', () => {
    const all = [...DIALECT_KEYWORDS, ...KEYWORDS, ...TYPE_KEYWORDS, ...BUILTIN_FUNCTIONS];
    const dupes = all.filter((w, i) => all.indexOf(w) !== i);
    expect(dupes).toEqual([]);
  });

  it('lists words in upper case and matches them case-insensitively', () => {
    const all = [...DIALECT_KEYWORDS, ...KEYWORDS, ...TYPE_KEYWORDS, ...BUILTIN_FUNCTIONS];
    expect(all.filter((w) => w !== w.toUpperCase())).toEqual([]);
    expect(monarchLanguage.ignoreCase).toBe(true);
  });

  it("colours x'..' bytes and E'..' escape strings as strings, not as a name and a string", () => {
    const root = monarchLanguage.tokenizer.root ?? [];
    const prefix = root.find((rule) => Array.isArray(rule) && rule[1] === 'string' && rule[0] instanceof RegExp);
    const pattern = (prefix as [RegExp, string])[0];
    expect(["x'0A'", "E'a'", "e'b'"].map((text) => pattern.exec(text)?.[0])).toEqual(['x', 'E', 'e']);
    expect(pattern.exec('max')).toBeNull();
  });

  it('gives dialect words their own token class', () => {
    const root = monarchLanguage.tokenizer.root ?? [];
    expect(JSON.stringify(root)).toContain('"@dialectKeywords":"keyword.stream"');
  });
});
