// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, it } from 'vitest';
import { LogFileNote } from '../../../src-renderer/src/features/settings/LogFileNote';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const container = document.createElement('div');
document.body.append(container);
const root = createRoot(container);
afterEach(() => act(() => root.render(null)));

it('Settings shows where the desktop app writes its log, and nothing where the host keeps none', () => {
  act(() => root.render(<LogFileNote file="/home/me/.config/Postdesk/logs/postdesk.log" />));
  expect(container.textContent).toBe(
    'Log file (secrets removed): /home/me/.config/Postdesk/logs/postdesk.log',
  );
  act(() => root.render(<LogFileNote file={null} />));
  expect(container.textContent).toBe('');
});
