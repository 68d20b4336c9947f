/**
 * FullCalendar 6 ships its CSS inside its JavaScript and inserts it through a `<style data-fullcalendar>`
 * element. Under our CSP (no 'unsafe-inline' styles) such an element gets no stylesheet and the calendar
 * renders unstyled. CSSOM rules are not subject to the CSP, so give FullCalendar an element whose `sheet`
 * is a constructed stylesheet adopted by the document. Must run before the first calendar mounts.
 */
export function prepareFullCalendarStyles(): void {
  if (document.querySelector('style[data-fullcalendar]')) return;
  const el = document.createElement('style');
  el.setAttribute('data-fullcalendar', '');
  document.head.prepend(el);
  if (el.sheet) return; // inline styles are allowed here (e.g. the dev server): nothing to do
  const sheet = new CSSStyleSheet();
  // First, so that our own stylesheets (which come later in the cascade) still override its rules.
  document.adoptedStyleSheets = [sheet, ...document.adoptedStyleSheets];
  Object.defineProperty(el, 'sheet', { configurable: true, get: () => sheet });
}
