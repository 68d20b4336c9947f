import type { Platform } from '../../../src-shared/api/common';

export interface PlatformMeta {
  readonly label: string;
  /** The letters of its mark. */
  readonly mark: string;
  /** What the composer says about this network's captions. */
  readonly hint: string;
  /** Posts cannot be published or scheduled to it through the service (automations and direct upload only). */
  readonly postsUnavailable?: boolean;
}

/** A Record so that a platform added to the contract fails to compile here until it has its mark. */
export const PLATFORM_META: Readonly<Record<Platform, PlatformMeta>> = {
  instagram: {
    label: 'Instagram',
    mark: 'IG',
    hint: 'Up to 2,200 characters; the first ~125 show before "more".',
  },
  tiktok: { label: 'TikTok', mark: 'TT', hint: 'Up to 2,200 characters; needs a video or images.' },
  linkedin: {
    label: 'LinkedIn',
    mark: 'in',
    hint: 'The service allows 2,200 characters; about 210 show before "see more".',
  },
  x: { label: 'X', mark: 'X', hint: 'The service allows 2,200 characters; non-premium X accounts show 280.' },
  youtube: {
    label: 'YouTube',
    mark: 'YT',
    hint: 'YouTube is reached through automations and direct uploads, not through posts.',
    postsUnavailable: true,
  },
};

export const PLATFORM_ORDER = Object.keys(PLATFORM_META) as Platform[];

export const platformLabel = (p: Platform): string => PLATFORM_META[p].label;

/** Platforms the composer offers: YouTube is explained instead. */
