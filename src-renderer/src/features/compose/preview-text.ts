import * as twitterText from 'twitter-text';

// twitter-text's ES build exports one default object while its CommonJS build (and its types) are named
// exports: take whichever the bundler handed over (as src-shared/platform-check.ts does for the count).
const tt = (twitterText as unknown as { default?: typeof twitterText }).default ?? twitterText;

/** A run of the caption as a feed shows it: plain text, or a link shown by its shortened form. */
export interface TextPart {
  readonly text: string;
  readonly url?: string;
}

/** X shows a link without its scheme and cuts what is long (t.co's display form); it counts 23 whatever shows. */
const X_DISPLAY_CHARS = 23;

export function xDisplayUrl(url: string): string {
  const bare = url.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
  return bare.length > X_DISPLAY_CHARS ? `${bare.slice(0, X_DISPLAY_CHARS - 1)}…` : bare;
}

/**
 * The caption cut into text and links, the links found as X finds them (twitter-text, the same parser that
 * counts each as 23). `shorten`: show each link as X does; otherwise as typed.
 */
export function captionParts(caption: string, shorten: boolean): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const { url, indices } of tt.extractUrlsWithIndices(caption)) {
    const [start, end] = indices;
    if (start > at) parts.push({ text: caption.slice(at, start) });
    parts.push({ text: shorten ? xDisplayUrl(url) : url, url });
    at = end;
  }
  if (at < caption.length) parts.push({ text: caption.slice(at) });
  return parts;
}

/** What a link card shows of the caption's first link: its site and a title made from its address. */
export interface LinkCardFacts {
  readonly url: string;
  readonly site: string;
  readonly title: string;
}

export function firstLink(caption: string): LinkCardFacts | null {
  const url = tt.extractUrls(caption)[0];
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    return null;
  }
  const site = parsed.hostname.replace(/^www\./i, '');
  // The page's own title is not fetched (the app loads nothing from the address): its last path word stands in.
  const last = parsed.pathname.split('/').filter(Boolean).pop() ?? '';
  let words = last;
  try {
    words = decodeURIComponent(last);
  } catch {
    // A malformed escape: shown as typed.
  }
  words = words
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[-_+]+/g, ' ')
    .trim();
  const title = words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : site;
  return { url, site, title };
}
