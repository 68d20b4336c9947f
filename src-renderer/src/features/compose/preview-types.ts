/** A file of the post as a preview shows it; `src` is null when the host has no preview of it. */
export interface PreviewMedia {
  readonly name: string;
  readonly src: string | null;
  readonly kind: 'image' | 'video' | 'other';
  readonly width?: number | null | undefined;
  readonly height?: number | null | undefined;
}

/** Who a preview shows as the author on a platform: the account's id (its colour) and its name. */
export interface PreviewAuthor {
  readonly id: string;
  readonly name: string;
}
