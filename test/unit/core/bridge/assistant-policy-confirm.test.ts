import { expect, it } from 'vitest';
import { Settings } from '../../../../src-shared/settings';
import { toSettingsView } from '../../../../src-shared/ipc/settings';
import { guardedChange } from '../../../../src-main/core/bridge/confirm';

/**
 * What an AI assistant may do through `postdesk mcp` is a guarded setting: a change from the page is shown
 * to the person outside the page, tool by tool, before it applies; a patch that changes nothing asks nothing.
 */

const view = (policies: Record<string, 'allow' | 'ask' | 'deny'>) =>
  toSettingsView(Settings.parse({ assistantToolPolicies: policies }), { log_file: null });

it('names each tool whose policy changes, with the old and new policy', () => {
  const change = guardedChange(view({ delete_post: 'deny' }), {
    assistant_tool_policies: { create_post: 'allow' },
  });
  expect(change?.lines).toEqual([
    "An AI assistant's create_post: allow (was ask)",
    "An AI assistant's delete_post: ask (was deny)",
  ]);
});

it('asks nothing when the policies stay as they are (a default written out is no change)', () => {
  expect(
    guardedChange(view({}), { assistant_tool_policies: { create_post: 'ask', list_posts: 'allow' } }),
  ).toBeNull();
  expect(
    guardedChange(view({ create_post: 'deny' }), { assistant_tool_policies: { create_post: 'deny' } }),
  ).toBeNull();
});
