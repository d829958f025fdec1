import { useState } from 'react';

interface Props {
  text: string;
  /** The element whose text to select when the clipboard API is refused. */
  fallbackId: string;
  testId?: string;
}

/**
 * Copies `text` to the clipboard. Where the clipboard API is refused (an
 * insecure origin, a denied permission) it selects the text so Ctrl+C works.
 */
export function CopyButton({ text, fallbackId, testId }: Props) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'select'>('idle');
  const selectFallback = () => {
    const element = document.getElementById(fallbackId);
    const selection = window.getSelection();
    if (element && selection) {
      const range = document.createRange();
      range.selectNodeContents(element);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    setStatus('select');
  };
  const copy = () => {
    if (!('clipboard' in navigator)) {
      selectFallback();
      return;
    }
    navigator.clipboard.writeText(text).then(() => setStatus('copied'), selectFallback);
  };
  return (
    <span className="copy">
      <button type="button" className="btn" onClick={copy} data-testid={testId}>
        Copy
      </button>
      <span className="muted small" role="status">
        {status === 'copied' && 'Copied'}
        {status === 'select' && 'Selected: press Ctrl+C (⌘C) to copy'}
      </span>
    </span>
  );
}
