import { describe, expect, it } from 'vitest';
import {
  hasApproval,
  hasAssistant,
  hasOwnPost,
  hasPostingTimes,
} from '../../../src-renderer/src/stores/use-first-run-store';

/** The first-run checklist's rules: each step is read from what is held, never from a flag of the checklist. */
describe('the first-run steps', () => {
  const at = '2026-11-28T09:00:00.000Z';

  it('posting times: some account has a weekly slot', () => {
    expect(hasPostingTimes([])).toBe(false);
    expect(hasPostingTimes([{ slots: [] }])).toBe(false);
    expect(hasPostingTimes([{ slots: [] }, { slots: [{ weekday: 1, time: '09:00' }] }])).toBe(true);
  });

  it('a first post: one no automation run made', () => {
    expect(hasOwnPost([])).toBe(false);
    expect(hasOwnPost([{ status: 'draft', scheduled_at: null, run_id: 'run-1' }])).toBe(false);
    expect(hasOwnPost([{ status: 'scheduled', scheduled_at: at, run_id: null }])).toBe(true);
    expect(hasOwnPost([{ status: 'posted', scheduled_at: null }])).toBe(true);
  });

  it("an approval: a run's draft that left the draft state with a time, or an assistant's request approved", () => {
    expect(hasApproval([{ status: 'draft', scheduled_at: null, run_id: 'run-1' }], [])).toBe(false);
    expect(hasApproval([{ status: 'scheduled', scheduled_at: at, run_id: 'run-1' }], [])).toBe(true);
    expect(hasApproval([{ status: 'posted', scheduled_at: at, run_id: 'run-1' }], [])).toBe(true);
    // An auto-mode run's post is published at once, with no time: nobody approved it.
    expect(hasApproval([{ status: 'posted', scheduled_at: null, run_id: 'run-2' }], [])).toBe(false);
    // A person's own scheduled post is not an inbox item.
    expect(hasApproval([{ status: 'scheduled', scheduled_at: at, run_id: null }], [])).toBe(false);
    expect(hasApproval([], [{ state: 'pending' }, { state: 'rejected' }])).toBe(false);
    expect(hasApproval([], [{ state: 'sent' }])).toBe(true);
  });

  it('an assistant: postdesk mcp saw the service’s tools, or an assistant called one', () => {
    expect(hasAssistant([], 0)).toBe(false);
    // Policies the person chose name tools without any assistant having connected.
    expect(hasAssistant([{ chosen: true }], 0)).toBe(false);
    expect(hasAssistant([{ chosen: false }, { chosen: true }], 0)).toBe(true);
    expect(hasAssistant([], 3)).toBe(true);
  });
});
