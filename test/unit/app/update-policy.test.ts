import { describe, expect, it } from 'vitest';
import { UpdatePolicy, releaseNotesText, updateErrorText } from '../../../src-main/app/updater';
import { RELEASE_NOTES_MAX, UpdateState, updateNotice } from '../../../src-main/app/update-state';

const policy = new UpdatePolicy();
const idle = { activeRuns: 0, activeUploads: 0 };

describe('UpdatePolicy', () => {
  it('does nothing before a download', () => {
    expect(policy.decide({ downloaded: false, restartRequested: true, activity: idle })).toEqual({
      kind: 'none',
    });
  });

  it('leaves a downloaded update for the next quit unless the user asks, even when nothing runs', () => {
    for (const activity of [idle, { activeRuns: 2, activeUploads: 1 }]) {
      expect(policy.decide({ downloaded: true, restartRequested: false, activity })).toEqual({
        kind: 'at-quit',
      });
    }
  });

  it('installs on "restart now" once nothing is in progress', () => {
    expect(policy.decide({ downloaded: true, restartRequested: true, activity: idle })).toEqual({
      kind: 'install',
    });
  });

  it.each([
    [{ activeRuns: 1, activeUploads: 0 }],
    [{ activeRuns: 0, activeUploads: 3 }],
    [{ activeRuns: 2, activeUploads: 1 }],
  ])('never installs mid-run or mid-upload, even on "restart now" (%o)', (activity) => {
    expect(policy.decide({ downloaded: true, restartRequested: true, activity })).toEqual({
      kind: 'defer',
      waitingFor: activity,
    });
  });
});

describe('release notes', () => {
  it('keeps Markdown as it is, and bounds it', () => {
    expect(releaseNotesText('## Fixes\r\n\n- Calendar drag keeps the time\n')).toBe(
      '## Fixes\n\n- Calendar drag keeps the time',
    );
    expect(releaseNotesText('x'.repeat(RELEASE_NOTES_MAX + 50))).toHaveLength(RELEASE_NOTES_MAX);
    expect(releaseNotesText('  ')).toBeNull();
    expect(releaseNotesText(null)).toBeNull();
    expect(releaseNotesText(undefined)).toBeNull();
  });

  it("reduces a GitHub release's HTML to text, and joins a full changelog by version", () => {
    expect(
      releaseNotesText(
        '<h2>Fixes</h2><ul><li>Drag &amp; drop keeps the time</li><li>Tray <b>icon</b> on macOS</li></ul>' +
          '<p><img src=x onerror="alert(1)">Thanks!</p>',
      ),
    ).toBe('Fixes\n\n- Drag & drop keeps the time\n- Tray icon on macOS\n\nThanks!');
    expect(
      releaseNotesText([
        { version: '0.3.0', note: 'Second' },
        { version: '0.2.0', note: null },
      ]),
    ).toBe('## 0.3.0\n\nSecond\n\n## 0.2.0');
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
    const notes = { ...state, releaseNotes: '## New\n\n- Template tray icon' };
    expect(UpdateState.parse(notes)).toEqual(notes);
    expect(UpdateState.safeParse({ ...state, releaseNotes: 'x'.repeat(RELEASE_NOTES_MAX + 1) }).success).toBe(
      false,
    );
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

  it('says a downloaded update installs at the next quit, in words for a person', () => {
    expect(updateNotice({ ...base, phase: 'downloaded' })).toEqual({
      level: 'info',
      message:
        'Postdesk 0.2.0 is ready. It installs when you quit Postdesk, or choose Restart now in Settings.',
    });
    expect(updateNotice({ ...base, phase: 'downloaded', restartRequested: true })).toBeNull();
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
