import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { Catalog, Diagnostic, SourceSpan } from '../../api/types';
import { MARKER_OWNER, diagnosticRange, toMarkers } from './markers';
import { ensureWeirSql, forgetModel, monaco, setModelCatalog } from './monacoSetup';
import { LANGUAGE_ID, THEME_ID } from './weirSql';

export interface SqlEditorHandle {
  /** Selects the span, scrolls it into view and focuses the editor. */
  reveal(span: SourceSpan): void;
  focus(): void;
}

interface Props {
  initialValue: string;
  diagnostics: readonly Diagnostic[];
  /** What completion offers: the last validation's catalog. */
  catalog: Catalog | null;
  /** Why the text cannot be edited now, or null when it can. */
  readOnlyReason: string | null;
  onChange: (value: string) => void;
  onSave: () => void;
  onCheckNow: () => void;
  ref?: Ref<SqlEditorHandle>;
}

/**
 * Monaco with the weir-sql language. Uncontrolled: the text lives in the
 * model, and every edit is reported through onChange.
 */
export function SqlEditor({ initialValue, diagnostics, catalog, readOnlyReason, onChange, onSave, onCheckNow, ref }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const callbacks = useRef({ onChange, onSave, onCheckNow });

  useEffect(() => {
    callbacks.current = { onChange, onSave, onCheckNow };
  }, [onChange, onSave, onCheckNow]);

  // Created once per mount; initialValue is read only here by design.
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    ensureWeirSql();
    const model = monaco.editor.createModel(initialValue, LANGUAGE_ID);
    const editor = monaco.editor.create(element, {
      model,
      theme: THEME_ID,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      renderLineHighlight: 'line',
      tabSize: 2,
      fixedOverflowWidgets: true,
      ariaLabel: 'Program text',
    });
    editorRef.current = editor;
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => callbacks.current.onSave());
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => callbacks.current.onCheckNow());
    const sub = model.onDidChangeContent(() => callbacks.current.onChange(model.getValue()));
    return () => {
      sub.dispose();
      // Clear our markers before the model goes, so none outlive the editor.
      monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
      forgetModel(model);
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the editor is created once per mount
  }, []);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(model, MARKER_OWNER, toMarkers(diagnostics, monaco.MarkerSeverity, model.uri));
  }, [diagnostics]);

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model) setModelCatalog(model, catalog);
  }, [catalog]);

  useEffect(() => {
    editorRef.current?.updateOptions({
      readOnly: readOnlyReason !== null,
      readOnlyMessage: { value: readOnlyReason ?? '' },
    });
  }, [readOnlyReason]);

  useImperativeHandle(
    ref,
    () => ({
      reveal(span: SourceSpan) {
        const editor = editorRef.current;
        if (!editor) return;
        const r = diagnosticRange(span);
        const range = new monaco.Range(r.startLineNumber, r.startColumn, r.endLineNumber, r.endColumn);
        editor.setSelection(range);
        editor.revealRangeInCenterIfOutsideViewport(range);
        editor.focus();
      },
      focus() {
        editorRef.current?.focus();
      },
    }),
    [],
  );

  return <div className="editor-host" data-testid="editor" ref={host} />;
}
