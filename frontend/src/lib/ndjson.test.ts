import { describe, expect, it } from 'vitest';
import { NdjsonSplitter, parseLine, readNdjson } from './ndjson';

describe('NdjsonSplitter', () => {
  it('holds a partial line until its newline arrives', () => {
    const s = new NdjsonSplitter();
    expect(s.push('{"a":1}\n{"b"')).toEqual(['{"a":1}']);
    expect(s.push(':2}\n')).toEqual(['{"b":2}']);
    expect(s.flush()).toEqual([]);
  });

  it('skips blank lines, strips CR, and flushes a last line without newline', () => {
    const s = new NdjsonSplitter();
    expect(s.push('\n{"a":1}\r\n\n{"c"')).toEqual(['{"a":1}']);
    expect(s.push(':3}')).toEqual([]);
    expect(s.flush()).toEqual(['{"c":3}']);
  });

  it('splits many lines in one chunk', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `{"i":${i}}`);
    expect(new NdjsonSplitter().push(lines.join('\n') + '\n')).toHaveLength(1000);
  });
});

describe('parseLine', () => {
  it('parses JSON and reports anything else', () => {
    expect(parseLine('{"step":1}')).toEqual({ ok: true, value: { step: 1 } });
    expect(parseLine('oops')).toEqual({ ok: false, line: 'oops' });
  });
});

describe('readNdjson', () => {
  it('reads values across chunk boundaries, multi-byte characters included', async () => {
    const bytes = new TextEncoder().encode('{"columns":[]}\n{"name":"café"}\nbad\n{"step":2}');
    // Cut inside the two-byte é and inside a line.
    const cuts = [5, 27, 28, bytes.length];
    let from = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const to of cuts) {
          controller.enqueue(bytes.slice(from, to));
          from = to;
        }
        controller.close();
      },
    });
    const values: unknown[] = [];
    const bad: string[] = [];
    await readNdjson(body, (v) => values.push(v), (l) => bad.push(l));
    expect(values).toEqual([{ columns: [] }, { name: 'café' }, { step: 2 }]);
    expect(bad).toEqual(['bad']);
  });
});
