import { describe, expect, it } from 'vitest';
import { parseStepLine } from '../../../../src-main/core/executor/step-line';

describe('parseStepLine', () => {
  it('reads ::step <id> <status> <message>', () => {
    expect(parseStepLine('::step render started making the thumbnail')).toEqual({
      stepId: 'render',
      status: 'started',
      message: 'making the thumbnail',
    });
    expect(parseStepLine('::step fetch.rss completed')).toEqual({
      stepId: 'fetch.rss',
      status: 'completed',
      message: '',
    });
    expect(parseStepLine('::step x info   spaced   message  ')).toEqual({
      stepId: 'x',
      status: 'info',
      message: 'spaced   message',
    });
  });

  it('ignores other lines and unknown statuses', () => {
    expect(parseStepLine('hello')).toBeNull();
    expect(parseStepLine('::step render done')).toBeNull();
    expect(parseStepLine(' ::step render started')).toBeNull();
    expect(parseStepLine('::stepper render started')).toBeNull();
  });
});
