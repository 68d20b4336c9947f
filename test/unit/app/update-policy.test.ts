import { describe, expect, it } from 'vitest';
import { UpdatePolicy, updateErrorText } from '../../../src-main/app/updater';
import { UpdateState, updateNotice } from '../../../src-main/app/update-state';

const policy = new UpdatePolicy();
const idle = { activeRuns: 0, activeUploads: 0 };

describe('UpdatePolicy', () => {
  it('does nothing before a download', () => {
    expect(policy.decide({ downloaded: false, restartRequested: true, activity: idle })).toEqual({
      kind: 'none',
    });
  });

  it('installs a downloaded update when nothing is in progress', () => {
    expect(policy.decide({ downloaded: true, restartRequested: false, activity: idle })).toEqual({
      kind: 'install',
      trigger: 'idle',
    });
    expect(policy.decide({ downloaded: true, restartRequested: true, activity: idle })).toEqual({
      kind: 'install',
      trigger: 'user',
    });
  });

  it.each([
    [{ activeRuns: 1, activeUploads: 0 }],
    [{ activeRuns: 0, activeUploads: 3 }],
    [{ activeRuns: 2, activeUploads: 1 }],
  ])('never installs mid-run or mid-upload, even on "restart now" (%o)', (activity) => {
    for (const restartRequested of [false, true]) {
      expect(policy.decide({ downloaded: true, restartRequested, activity })).toEqual({
        kind: 'defer',
        waitingFor: activity,
      });
    }
  });
});

describe('update state for Settings', () => {
  it('keeps errors to one bounded line', () => {
    const e = new Error(`HttpError: 404 Not Found\n    at Object.<anonymous> (/x.js:1:1)\nHeaders: {...}`);
    expect(updateErrorText(e)).toBe('HttpError: 404 Not Found');
    expect(updateErrorText('x'.repeat(500))).toHaveLength(200);
    expect(updateErrorText(new Error(''))).toBe('update failed');
  });

  it('is a schema the bridge can validate', () => {
    const state = {
      phase: 'waiting-for-idle',
      channel: 'beta',
      currentVersion: '0.1.0',
      availableVersion: '0.2.0-beta.1',
      progress: null,
      waitingFor: { activeRuns: 1, activeUploads: 0 },
      restartRequested: false,
      error: null,
      lastCheckedAt: '2025-01-01T00:00:00.000Z',
    };
    expect(UpdateState.parse(state)).toEqual(state);
    expect(UpdateState.safeParse({ ...state, channel: 'nightly' }).success).toBe(false);
  });
});

describe('updateNotice', () => {
  const base: UpdateState = {
    phase: 'idle',
    channel: 'stable',
    currentVersion: '0.1.0',
    availableVersion: '0.2.0',
    progress: null,
    waitingFor: null,
    restartRequested: false,
    error: null,
    lastCheckedAt: null,
  };

  it('says what the install waits for', () => {
    expect(
      updateNotice({ ...base, phase: 'waiting-for-idle', waitingFor: { activeRuns: 2, activeUploads: 1 } }),
    ).toEqual({
      level: 'info',
      message: 'Postdesk 0.2.0 is ready and installs when the work in progress ends (2 runs, 1 upload).',
    });
  });

  it('announces the restart and errors, and stays quiet otherwise', () => {
    expect(updateNotice({ ...base, phase: 'installing' })?.message).toBe(
      'Postdesk 0.2.0 is installing; Postdesk restarts.',
    );
    expect(updateNotice({ ...base, phase: 'error', error: 'net::ERR_INTERNET_DISCONNECTED' })).toEqual({
      level: 'warning',
      message: 'Update: net::ERR_INTERNET_DISCONNECTED',
    });
    expect(updateNotice({ ...base, phase: 'downloading' })).toBeNull();
    expect(updateNotice({ ...base, phase: 'up-to-date' })).toBeNull();
  });
});
