import { describe, expect, it } from 'vitest';
import type { PipelineConfig } from '../../api/types';
import { configFields, configPatch } from './config';

const current: PipelineConfig = {
  spark_master: 'local[2]',
  cores: 2,
  memory: '1g',
  trigger_interval_ms: 0,
  storage_dir: null,
  connectors: [],
};

describe('configPatch', () => {
  it('sends only what changed', () => {
    expect(configPatch(configFields(current), current)).toEqual({ ok: true, patch: {} });
    expect(configPatch({ ...configFields(current), cores: ' 4 ', memory: '2g' }, current)).toEqual({
      ok: true,
      patch: { cores: 4, memory: '2g' },
    });
  });

  it('refuses what cannot be right', () => {
    expect(configPatch({ ...configFields(current), spark_master: ' ' }, current)).toMatchObject({ ok: false });
    expect(configPatch({ ...configFields(current), cores: '0' }, current)).toMatchObject({ ok: false });
    expect(configPatch({ ...configFields(current), cores: '1.5' }, current)).toMatchObject({ ok: false });
    expect(configPatch({ ...configFields(current), memory: 'lots' }, current)).toMatchObject({ ok: false });
    expect(configPatch({ ...configFields(current), trigger_interval_ms: '-1' }, current)).toMatchObject({ ok: false });
  });
});
