import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { resetOffer } from './deploy';

const refused = (details: unknown) =>
  new ApiError("Deploying v3 to 'p' changes what its state was computed for", {
    status: 409,
    code: 'state_reset_required',
    details,
  });

describe('resetOffer', () => {
  it('names the version and every change of a state_reset_required refusal', () => {
    const offer = resetOffer(refused({ changes: ['view v: query changed', 'table t: removed'], version: 3 }));
    expect(offer).toEqual({
      version: 3,
      changes: ['view v: query changed', 'table t: removed'],
      message: "Deploying v3 to 'p' changes what its state was computed for",
    });
  });

  it('still offers the reset when the details are missing or odd', () => {
    expect(resetOffer(refused(null))).toMatchObject({ version: null, changes: [] });
    expect(resetOffer(refused({ changes: ['ok', 7, null], version: '3' }))).toMatchObject({ version: null, changes: ['ok'] });
  });

  it('offers nothing for other failures', () => {
    expect(resetOffer(new ApiError('Stop it first', { status: 409, code: 'conflict' }))).toBeNull();
    expect(resetOffer(new Error('network'))).toBeNull();
    expect(resetOffer('state_reset_required')).toBeNull();
  });
});
