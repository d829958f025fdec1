export const DEFAULT_PIPELINE = 'demo';

/** The pipeline the page shows: `?pipeline=NAME`, or `demo`. */
export function pipelineFromSearch(search: string): string {
  const name = new URLSearchParams(search).get('pipeline')?.trim();
  return name ? name : DEFAULT_PIPELINE;
}
