import { plainName } from '../../app/bidi';
import type { LinkCardFacts } from './preview-text';

/**
 * The card a feed makes of the post's first link: a picture area, the site and a title. The page is not
 * fetched (the app loads nothing from the address), so the title comes from the address itself.
 */
export function LinkCard({ link }: { readonly link: LinkCardFacts }) {
  const site = plainName(link.site);
  return (
    <div className="link-card" role="group" aria-label={`Link card: ${site}`}>
      <div className="link-card__image" aria-hidden="true">
        {site.charAt(0).toUpperCase()}
      </div>
      <div className="link-card__text">
        <span className="link-card__site">{site}</span>
        <span className="link-card__title">{plainName(link.title)}</span>
      </div>
    </div>
  );
}
