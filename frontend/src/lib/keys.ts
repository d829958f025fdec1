/** Ctrl+Enter, or ⌘+Enter on a Mac: "run this" in the query box, "send" in the ingest box, "check" in the editor. */
export function isModEnter(e: { ctrlKey: boolean; metaKey: boolean; altKey: boolean; key: string }): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && e.key === 'Enter';
}
