import { useRef, type KeyboardEvent } from 'react';

const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘' : 'Ctrl';

const SHORTCUTS: readonly [string, string][] = [
  [`${MOD}+S`, 'Save as a new version'],
  [`${MOD}+Enter`, 'Check the program now (in the Query tab: run the query)'],
  ['Ctrl+Space', 'Complete a table, view, column or keyword'],
  ['F8 / Shift+F8', 'Next / previous problem'],
  [`${MOD}+F`, 'Find'],
  [`${MOD}+/`, 'Comment or uncomment lines'],
  [MOD === '⌘' ? 'Ctrl+Shift+M' : 'Ctrl+M', 'Tab moves the focus out of the editor (again: Tab indents)'],
  ['Esc', 'Close this list'],
];

/** The keyboard shortcuts, in a popover that opens from a button (a <details>, so it works with the keyboard alone). */
export function ShortcutHelp() {
  const details = useRef<HTMLDetailsElement>(null);
  const close = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && details.current?.open) {
      details.current.open = false;
      details.current.querySelector('summary')?.focus();
    }
  };
  return (
    <details className="help" ref={details} onKeyDown={close} data-testid="shortcut-help">
      <summary className="btn" aria-label="Keyboard shortcuts" title="Keyboard shortcuts">
        ?
      </summary>
      <div className="popover" role="dialog" aria-label="Keyboard shortcuts">
        <h2>Keyboard shortcuts</h2>
        <dl className="shortcuts">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={keys}>
              <dt>
                <kbd>{keys}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </details>
  );
}
