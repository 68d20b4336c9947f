import type { Platform } from '../../../../src-shared/api/common';
import type { ComposeWhen } from '../../../../src-shared/ipc';
import { LIMITS } from '../../../../src-shared/api/limits';
import { checkPost, type MediaFacts } from '../../../../src-shared/platform-check';
import type { MediaPhase } from '../../stores/use-media-store';

/** What the checks know of one attached file. */
export interface MediaState extends MediaFacts {
  readonly phase: MediaPhase;
}

export interface PostChecks {
  /** Each a sentence naming what to fix and its limit: Send stays off while any is left. */
  readonly blockers: readonly string[];
  /** The platforms' own rules the post may break there: said, not enforced. */
  readonly warnings: readonly string[];
}

/**
 * Everything that holds a post back before it is sent, the same for the Send button and Ctrl/Cmd+Enter: each
 * picked platform's rules (src-shared/platform-rules.ts; what certainly fails there blocks, the rest warns) and
 * the service's limits (LIMITS). The caption's length per platform is said under the caption, not here.
 */
export function checkCompose(post: {
  readonly caption: string;
  readonly platforms: readonly Platform[];
  readonly targetCount: number;
  readonly media: readonly MediaState[];
  readonly when: ComposeWhen;
  /** The scheduled instant (UTC ISO), or null when none is picked or it cannot be read. */
  readonly scheduledAt: string | null;
  /** The service's time now. */
  readonly now: number;
}): PostChecks {
  const verdicts = checkPost(post.platforms, {
    caption: post.caption,
    media: post.media.map(({ phase: _phase, ...facts }) => facts),
  }).filter((v) => v.rule !== 'caption-length');
  const blockers = verdicts.filter((v) => v.severity === 'block').map((v) => v.message);
  const { caption, media } = post;
  if (caption.trim().length === 0 && media.length === 0) blockers.push('Write a caption or add media.');
  if (caption.length > LIMITS.captionLength)
    blockers.push(`The caption is over ${LIMITS.captionLength} characters.`);
  if (post.targetCount === 0) blockers.push('Pick at least one account.');
  if (post.targetCount > LIMITS.addTargetsPerUpdate)
    blockers.push(`Pick at most ${LIMITS.addTargetsPerUpdate} accounts.`);
  if (media.length > LIMITS.mediaPerPost) blockers.push(`Attach at most ${LIMITS.mediaPerPost} files.`);
  if (media.some((m) => m.phase === 'rejected' || m.phase === 'failed'))
    blockers.push('Convert, retry or remove the media that was not accepted.');
  if (media.some((m) => m.phase !== 'uploaded' && m.phase !== 'rejected' && m.phase !== 'failed'))
    blockers.push('Waiting for uploads to finish…');
  if (post.when === 'schedule' && (!post.scheduledAt || Date.parse(post.scheduledAt) <= post.now))
    blockers.push('Pick a time in the future.');
  return { blockers, warnings: verdicts.filter((v) => v.severity === 'warn').map((v) => v.message) };
}
