/**
 * Newline-delimited JSON off a streamed answer (SELECT STREAM, egress).
 *
 * Network chunks end anywhere, often mid-line; the splitter keeps the partial
 * tail until its newline arrives, so every value is parsed exactly once.
 */

export class NdjsonSplitter {
  private tail = '';

  /** The complete lines in `chunk` (after any tail held from before); blank lines are skipped. */
  push(chunk: string): string[] {
    const text = this.tail + chunk;
    const lines = text.split('\n');
    this.tail = lines.pop() ?? '';
    return lines.map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
  }

  /** The last line, when the stream ended without a newline after it. */
  flush(): string[] {
    const rest = this.tail.trim();
    this.tail = '';
    return rest === '' ? [] : [rest];
  }
}

export type ParsedLine = { ok: true; value: unknown } | { ok: false; line: string };

export function parseLine(line: string): ParsedLine {
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch {
    return { ok: false, line };
  }
}

/**
 * Reads a streamed body line by line until it ends or `signal` aborts,
 * calling `onValue` for every JSON value (and `onBadLine` for anything else).
 */
export async function readNdjson(
  body: ReadableStream<Uint8Array>,
  onValue: (value: unknown) => void,
  onBadLine: (line: string) => void = () => undefined,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = new NdjsonSplitter();
  const emit = (lines: string[]) => {
    for (const line of lines) {
      const parsed = parseLine(line);
      if (parsed.ok) onValue(parsed.value);
      else onBadLine(parsed.line);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      emit(splitter.push(decoder.decode(value, { stream: true })));
    }
    emit(splitter.push(decoder.decode()));
    emit(splitter.flush());
  } finally {
    reader.releaseLock();
  }
}
