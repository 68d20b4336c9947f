import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src-shared/api/limits';
import { requiredTargets } from '../../../src-main/cli/args';
import { ValidationError } from '../../../src-main/core/api/errors';

const X = '11111111-1111-4111-8111-111111111111';
const LI = '22222222-2222-4222-8222-222222222222';

/** The issues of the ValidationError `run` throws. */
function issuesOf(run: () => unknown): readonly { path: string; message: string }[] {
  try {
    run();
  } catch (e) {
    if (e instanceof ValidationError) return e.issues;
    throw e;
  }
  throw new Error('no error thrown');
}

// The one --target check of the commands that create a post (`posts create`, `queue add`).
describe('requiredTargets', () => {
  it('refuses no target, naming the flag and its limits', () => {
    expect(issuesOf(() => requiredTargets([]))).toEqual([
      {
        path: 'target',
        message: `at least 1 and at most ${LIMITS.addTargetsPerUpdate} --target platform:account_id`,
      },
    ]);
  });

  it('parses each target', () => {
    expect(requiredTargets([`x:${X}`, `linkedin:${LI}`])).toEqual([
      { platform: 'x', social_account_id: X },
      { platform: 'linkedin', social_account_id: LI },
    ]);
  });

  it('names the target at fault', () => {
    expect(issuesOf(() => requiredTargets([`x:${X}`, 'myspace:abc']))[0]?.path).toBe('target[1]');
    expect(issuesOf(() => requiredTargets([`x:not-a-uuid`]))[0]?.message).toContain('must be a uuid');
  });
});
