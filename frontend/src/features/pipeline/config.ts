/** The runtime settings form: what was typed, checked, as the partial config PATCH takes. */
import type { PipelineConfig } from '../../api/types';

export interface ConfigFields {
  spark_master: string;
  cores: string;
  memory: string;
  trigger_interval_ms: string;
}

export function configFields(config: PipelineConfig): ConfigFields {
  return {
    spark_master: config.spark_master,
    cores: String(config.cores),
    memory: config.memory,
    trigger_interval_ms: String(config.trigger_interval_ms),
  };
}

export type ConfigPatch = { ok: true; patch: Partial<PipelineConfig> } | { ok: false; error: string };

const whole = (text: string, min: number): number | null => {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(n) && n >= min ? n : null;
};

/** Only the fields that changed; shape errors caught here, the rest is the server's to judge. */
export function configPatch(fields: ConfigFields, current: PipelineConfig): ConfigPatch {
  const patch: Partial<PipelineConfig> = {};
  const master = fields.spark_master.trim();
  if (master === '') return { ok: false, error: 'The Spark master cannot be empty (e.g. local[2]).' };
  if (master !== current.spark_master) patch.spark_master = master;
  const cores = whole(fields.cores, 1);
  if (cores === null) return { ok: false, error: 'Cores must be a whole number of at least 1.' };
  if (cores !== current.cores) patch.cores = cores;
  const memory = fields.memory.trim();
  if (!/^\d+[kmgt]?$/i.test(memory)) return { ok: false, error: 'Memory is a size such as 512m or 2g.' };
  if (memory !== current.memory) patch.memory = memory;
  const interval = whole(fields.trigger_interval_ms, 0);
  if (interval === null) return { ok: false, error: 'The trigger interval is a whole number of milliseconds.' };
  if (interval !== current.trigger_interval_ms) patch.trigger_interval_ms = interval;
  return { ok: true, patch };
}
