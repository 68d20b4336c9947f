import { describe, expect, it } from 'vitest';
import { parseAgentOutput } from '../../../../src-main/core/executor/agent-output';

const check = (o: unknown) => parseAgentOutput(JSON.stringify(o));
const problems = (o: unknown) => {
  const r = check(o);
  return r.ok ? [] : r.problems;
};

describe('agent output', () => {
  it('accepts every limit exactly at its maximum', () => {
    const r = check({
      caption: 'c'.repeat(2200),
      title: 't'.repeat(100),
      media: Array.from({ length: 10 }, (_, i) => `m${i}.png`),
      slides: Array.from({ length: 10 }, (_, i) => ({ text: 's'.repeat(500), path: `s${i}.png` })),
      metadata: { any: 'thing' },
    });
    expect(r.ok).toBe(true);
  });

  it('names each limit that is broken, with the size it got', () => {
    expect(problems({ caption: 'c'.repeat(2201) })).toEqual([
      'caption is over the limit of 2200 (got 2201 characters)',
    ]);
    expect(problems({ caption: '', media: Array.from({ length: 11 }, () => 'a.png') })).toEqual([
      'media is over the limit of 10 (got 11 items)',
    ]);
    expect(
      problems({ caption: '', slides: Array.from({ length: 11 }, () => ({ url: 'https://x.test/a.png' })) }),
    ).toEqual(['slides is over the limit of 10 (got 11 items)']);
    expect(
      problems({ caption: '', slides: [{ text: 'x'.repeat(501), url: 'https://x.test/a.png' }] }),
    ).toEqual(['slides.0.text is over the limit of 500 (got 501 characters)']);
    expect(problems({ caption: '', title: '' })).toEqual(['title is under the minimum of 1']);
  });

  it('wants a caption, one of path or url per slide, and no unknown fields', () => {
    expect(problems({})[0]).toMatch(/^caption: /);
    expect(
      problems({ caption: '', slides: [{ text: 'both', path: 'a.png', url: 'https://x.test/a.png' }] }),
    ).toEqual(['slides.0: a slide needs exactly one of "path" (a file) or "url"']);
    expect(problems({ caption: '', captoin: 'typo' })).toEqual(['unknown field(s) captoin']);
    expect(problems('not an object')[0]).toMatch(/^output: /);
    expect(parseAgentOutput('{oops')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^output.json is not valid JSON/)],
    });
  });

  it('takes media as paths or {path} objects', () => {
    const r = check({ caption: 'x', media: ['a.png', { path: 'b.mp4' }] });
    expect(r.ok && r.output.media).toEqual(['a.png', 'b.mp4']);
  });
});
