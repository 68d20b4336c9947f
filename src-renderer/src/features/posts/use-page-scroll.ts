import { useLayoutEffect } from 'react';

/**
 * While Posts is shown, the document scrolls, not a box inside it: `html[data-scroll=page]` (posts.css) lets the
 * shell grow with the timeline and keeps the sidebar in view. The timeline is virtualised against the window
 * (PostTimeline), so this must hold whenever it is on screen. Set before the first paint (a layout effect): set
 * after it, the whole document was restyled and the first cards laid out a second time, in the first render's frames.
 */
export function usePageScroll(): void {
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.scroll = 'page';
    return () => {
      delete root.dataset.scroll;
    };
  }, []);
}
