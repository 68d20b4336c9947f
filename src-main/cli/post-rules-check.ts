import type { CreatePostRequest, MediaRef } from '../../src-shared/api/posts';
import { checkPost, type MediaFacts, type RuleVerdict } from '../../src-shared/platform-check';
import { ValidationError } from '../core/api/errors';
import type { Output } from './output';

/**
 * What the command line knows of a media reference: an address says its kind by its ending; an asset id says
 * nothing here, so only the rules that need no kind (how many, whether any) apply to it.
 */
function factsOf(m: MediaRef): MediaFacts {
  if (!('url' in m)) return { kind: 'unknown' };
  const path = m.url.split(/[?#]/)[0]?.toLowerCase() ?? '';
  if (/\.(mp4|mov|m4v|webm)$/.test(path)) return { kind: 'video' };
  if (/\.(jpe?g|png|webp|gif)$/.test(path)) return { kind: 'image' };
  return { kind: 'unknown' };
}

/** The platforms' rules (src-shared/platform-rules.ts) for a post about to be created: verdicts, blocks first. */
function postVerdicts(req: Pick<CreatePostRequest, 'caption' | 'media' | 'targets'>): RuleVerdict[] {
  return checkPost(
    req.targets.map((t) => t.platform),
    { caption: req.caption, media: (req.media ?? []).map(factsOf) },
  );
}

/**
 * Refuses (exit 2, nothing queued) a post that certainly fails on one of its platforms, and prints a warning
 * (stderr) for each rule the post may break there, naming the platform and the number.
 */
export function warnOrRefuseRules(
  out: Output,
  req: Pick<CreatePostRequest, 'caption' | 'media' | 'targets'>,
  applies: (v: RuleVerdict) => boolean = () => true,
): void {
  const verdicts = postVerdicts(req).filter(applies);
  const blocks = verdicts.filter((v) => v.severity === 'block');
  if (blocks.length > 0) {
    throw new ValidationError(
      blocks.map((v) => ({ path: v.platform, message: v.message })),
      null,
      'argument',
    );
  }
  for (const v of verdicts) out.warn(`${out.colors.yellow('!')} warning: ${v.message}`);
}
