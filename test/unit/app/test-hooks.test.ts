import { describe, expect, it } from 'vitest';
import {
  TEST_HOOKS_GLOBAL,
  exposeTestHooks,
  testHooksEnabled,
  type TestHookView,
  type TestHooks,
} from '../../../src-main/app/test-hooks';

describe('the desktop tests’ hook into main', () => {
  it('is on only in an unpackaged run that asks for it', () => {
    expect(testHooksEnabled({ POSTDESK_TEST_HOOKS: '1' }, false)).toBe(true);
    expect(testHooksEnabled({ POSTDESK_TEST_HOOKS: '1' }, true)).toBe(false);
    expect(testHooksEnabled({}, false)).toBe(false);
    expect(testHooksEnabled({ POSTDESK_TEST_HOOKS: 'true' }, false)).toBe(false);
  });

  it('hands out copies: a caller cannot change what main holds', () => {
    const held: TestHookView = {
      tray: { alive: true, state: 'ok', items: [{ type: 'normal', label: 'Quit Postdesk', enabled: true }] },
      executor: { state: 'running', activeRuns: 0 },
    };
    const target: Record<string, unknown> = {};
    const remove = exposeTestHooks(target, () => held);
    const hooks = target[TEST_HOOKS_GLOBAL] as TestHooks;
    const view = hooks.view() as unknown as { tray: { items: { label: string }[] } };
    view.tray.items[0]!.label = 'changed';
    expect(held.tray?.items[0]?.label).toBe('Quit Postdesk');
    expect(() => Object.assign(hooks, { view: () => null })).toThrow();
    remove();
    expect(TEST_HOOKS_GLOBAL in target).toBe(false);
  });
});
