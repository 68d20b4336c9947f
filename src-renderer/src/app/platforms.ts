import type { Platform } from '../../../src-shared/api/common';
import { PLATFORM_RULES, captionHint } from '../../../src-shared/platform-rules';

export interface PlatformMeta {
  readonly label: string;
  /** The letters of its mark. */
  readonly mark: string;
  /** What the composer says about this network's captions. */
  readonly hint: string;
  /** Posts cannot be published or scheduled to it through the service (automations and direct upload only). */
  readonly postsUnavailable?: boolean;
}

/** A platform's name, hint and reach come from the rules table (src-shared/platform-rules.ts); only the mark is the UI's. */
function meta(p: Platform, mark: string): PlatformMeta {
  const r = PLATFORM_RULES[p];
  return {
    label: r.name,
    mark,
    hint: captionHint(p),
    ...(r.postsReach.value ? {} : { postsUnavailable: true }),
  };
}

/** A Record so that a platform added to the contract fails to compile here until it has its mark. */
export const PLATFORM_META: Readonly<Record<Platform, PlatformMeta>> = {
  instagram: meta('instagram', 'IG'),
  tiktok: meta('tiktok', 'TT'),
  linkedin: meta('linkedin', 'in'),
  x: meta('x', 'X'),
  youtube: meta('youtube', 'YT'),
};

export const PLATFORM_ORDER = Object.keys(PLATFORM_META) as Platform[];

export const platformLabel = (p: Platform): string => PLATFORM_META[p].label;

/** Platforms the composer offers: YouTube is explained instead. */
