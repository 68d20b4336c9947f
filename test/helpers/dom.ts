import { JSDOM } from 'jsdom';

/**
 * A browser document for page code under test, installed on the globals React and the stores read. Set up by hand
 * (not vitest's jsdom environment) so the Node modules a test starts beside it are loaded as Node code.
 * Returns the function that removes it.
 */
export function installDom(): () => void {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', {
    url: 'http://127.0.0.1/',
    pretendToBeVisual: true,
  });
  const names = [
    'window',
    'document',
    'navigator',
    'HTMLElement',
    'Node',
    'Event',
    'MouseEvent',
    'getComputedStyle',
  ];
  const saved = names.map((n) => [n, Object.getOwnPropertyDescriptor(globalThis, n)] as const);
  for (const n of names) {
    const value = n === 'window' ? dom.window : dom.window[n];
    Object.defineProperty(globalThis, n, { value, configurable: true, writable: true });
  }
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  return () => {
    for (const [n, d] of saved) {
      if (d) Object.defineProperty(globalThis, n, d);
      else delete (globalThis as Record<string, unknown>)[n];
    }
    dom.window.close();
  };
}
