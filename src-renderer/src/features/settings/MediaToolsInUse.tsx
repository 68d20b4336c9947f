import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { MediaTool } from '../../../../src-shared/ipc';
import { useSettingsStore } from '../../stores/use-settings-store';

const SOURCE: Readonly<Record<NonNullable<MediaTool['source']>, string>> = {
  setting: 'chosen here',
  npm: 'bundled with Postdesk',
  path: "the system's",
};

/** Which ffmpeg and ffprobe main really runs, with their versions, and a warning when only an old build is there. */
export function MediaToolsInUse() {
  const { tools, loadTools } = useSettingsStore(useShallow((s) => pick(s, 'tools', 'loadTools')));
  useEffect(() => {
    void loadTools();
  }, [loadTools]);
  if (!tools.data) return null;
  const rows = [tools.data.ffmpeg, tools.data.ffprobe];
  return (
    <div className="settings__media-tools">
      <ul className="faint">
        {rows.map((t) => (
          <li key={t.name}>
            In use: <strong>{t.name}</strong>{' '}
            {t.path ? (
              <>
                {t.version ? `version ${t.version}` : 'of unknown version'},{' '}
                {t.source ? SOURCE[t.source] : ''} (<span className="mono">{t.path}</span>)
              </>
            ) : (
              'none found'
            )}
          </li>
        ))}
      </ul>
      {rows.flatMap((t) =>
        t.note
          ? [
              <p key={t.name} className="field__error" role="status">
                {t.name}: {t.note}.
              </p>,
            ]
          : [],
      )}
    </div>
  );
}
