/**
 * Monaco, bundled from our own origin: the core editor API, the editing
 * features a SQL editor wants (find, folding, hover, ...) without the language
 * services we do not use, and the one web worker the core needs. Nothing is
 * fetched from a CDN.
 *
 * We drive monaco-editor directly rather than through @monaco-editor/react: its
 * loader defaults to a CDN and its types import a path that monaco 0.57's
 * export map no longer exposes.
 */
import * as monaco from 'monaco-editor/editor';
// The editing features a SQL editor wants; the rest of Monaco's stays out of the bundle.
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/caretOperations/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/smartSelect/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/suggest/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
// features/suggest/register brings only inline suggestions; the completion
// widget itself (Ctrl+Space, trigger characters) is this contribution.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import type { Catalog } from '../../api/types';
import { buildCompletions, type EntryKind } from './completion';
import { LANGUAGE_ID, THEME_ID, languageConfiguration, monarchLanguage, theme } from './weirSql';

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

let registered = false;

/** The catalog each model completes against (the last validation of its text), by model URI. */
const catalogs = new Map<string, Catalog | null>();

export function setModelCatalog(model: monaco.editor.ITextModel, catalog: Catalog | null): void {
  catalogs.set(model.uri.toString(), catalog);
}

export function forgetModel(model: monaco.editor.ITextModel): void {
  catalogs.delete(model.uri.toString());
}

const KIND: Record<EntryKind, monaco.languages.CompletionItemKind> = {
  table: monaco.languages.CompletionItemKind.Struct,
  stream: monaco.languages.CompletionItemKind.Event,
  view: monaco.languages.CompletionItemKind.Interface,
  column: monaco.languages.CompletionItemKind.Field,
  keyword: monaco.languages.CompletionItemKind.Keyword,
  function: monaco.languages.CompletionItemKind.Function,
  type: monaco.languages.CompletionItemKind.TypeParameter,
};

const completionProvider: monaco.languages.CompletionItemProvider = {
  triggerCharacters: ['.'],
  provideCompletionItems(model, position) {
    const before = model.getValueInRange({
      startLineNumber: position.lineNumber,
      startColumn: 1,
      endLineNumber: position.lineNumber,
      endColumn: position.column,
    });
    const word = model.getWordUntilPosition(position);
    const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
    const entries = buildCompletions(catalogs.get(model.uri.toString()) ?? null, model.getValue(), before);
    return {
      suggestions: entries.map((e) => ({
        label: e.label,
        kind: KIND[e.kind],
        detail: e.detail,
        insertText: e.insertText,
        sortText: e.sortText,
        range,
      })),
    };
  },
};

/** Registers `weir-sql`, its theme and its completions once; safe to call on every mount. */
export function ensureWeirSql(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: LANGUAGE_ID, extensions: ['.sql'], aliases: ['Weir SQL'] });
  monaco.languages.setLanguageConfiguration(LANGUAGE_ID, languageConfiguration);
  monaco.languages.setMonarchTokensProvider(LANGUAGE_ID, monarchLanguage);
  monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, completionProvider);
  monaco.editor.defineTheme(THEME_ID, theme);
}

export { monaco };
