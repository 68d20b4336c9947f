import ReactMarkdown, { type Components } from 'react-markdown';
import { useAppStore } from '../stores/use-app-store';

/**
 * Markdown as React elements: raw HTML in the source is not rendered (react-markdown's default), so
 * nothing reaches the DOM as HTML. Links open in the system browser instead of navigating the window.
 */
const components: Components = {
  a: ({ href, children }) => (
    <a
      href={href}
      rel="noreferrer noopener"
      onClick={(e) => {
        e.preventDefault();
        if (href && /^https:\/\//.test(href)) void useAppStore.getState().openExternal(href);
      }}
    >
      {children}
    </a>
  ),
  img: ({ alt }) => <span className="faint">[image: {alt || 'untitled'}]</span>,
};

export function Markdown({ source, label }: { readonly source: string; readonly label?: string }) {
  return (
    <div className="markdown" aria-label={label}>
      <ReactMarkdown components={components} skipHtml>
        {source}
      </ReactMarkdown>
    </div>
  );
}
