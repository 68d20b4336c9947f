import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { ExternalLink } from './ExternalLink';

/**
 * Markdown as React elements: raw HTML in the source is not rendered (`skipHtml`), so nothing reaches the
 * DOM as HTML. GitHub's tables, strikethrough and task lists are read (remark-gfm). A link is a link only
 * when it is https on the allowlist (`ExternalLink`); otherwise its text stays, inert.
 */
const components: Components = {
  a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
  table: ({ children }) => (
    <div className="markdown__table">
      <table>{children}</table>
    </div>
  ),
  img: ({ alt }) => <span className="faint">[image: {alt || 'untitled'}]</span>,
};

export function Markdown({ source, label }: { readonly source: string; readonly label?: string }) {
  return (
    <div className="markdown" aria-label={label}>
      <ReactMarkdown components={components} remarkPlugins={[remarkGfm]} skipHtml>
        {source}
      </ReactMarkdown>
    </div>
  );
}
