// @vitest-environment jsdom
/**
 * Settings' Media tools card says which ffmpeg and ffprobe main runs, over main's real report of real
 * binaries: the system's 5.1 build when it is on PATH, and a warning when only the bundled 2018 one is found.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostdeskBridge } from '../../../src-shared/ipc';
import { createTools, findOnPath, reportTools } from '../../../src-main/core/media/tools';
import { MediaToolsInUse } from '../../../src-renderer/src/features/settings/MediaToolsInUse';
import { useSettingsStore } from '../../../src-renderer/src/stores/use-settings-store';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  useSettingsStore.setState({ tools: { data: null, loading: false, error: null, fetchedAt: null } });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  delete window.postdesk;
});

function install(path: string): void {
  const report = reportTools(createTools({}, { PATH: path }));
  window.postdesk = {
    media: { tools: async () => ({ ok: true, value: report }) },
  } as unknown as PostdeskBridge;
}

async function show(): Promise<string> {
  await act(async () => root.render(<MediaToolsInUse />));
  await act(async () => new Promise((r) => setTimeout(r, 0)));
  return container.textContent ?? '';
}

describe('the Media tools card', () => {
  it('names the system ffmpeg in use and its version', async () => {
    const system = findOnPath('ffmpeg');
    if (!system && process.env.CI !== 'true') return; // a machine without a system ffmpeg
    expect(system, 'CI installs ffmpeg from apt').toBeTruthy();
    install(process.env.PATH ?? '');
    const text = await show();
    expect(text).toMatch(/In use: ffmpeg version \d+\.\d+\S*, the system's \(/);
    expect(text).toContain(system!);
    expect(text).not.toMatch(/old build/);
  });

  it('warns when only the bundled 2018 ffmpeg is there', async () => {
    install('');
    const text = await show();
    expect(text).toMatch(/In use: ffmpeg version N-\S+, bundled with Postdesk/);
    expect(text).toMatch(/ffmpeg: only the ffmpeg bundled with Postdesk was found, an old build/);
  });
});
