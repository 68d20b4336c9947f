import { useEffect, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import type { Article, ArticleDestination, ArticleTargetResult } from '../../../../src-shared/api/articles';
import type { BridgeError } from '../../../../src-shared/ipc';
import { plainName } from '../../app/bidi';
import { formatDate, formatDateTime } from '../../app/format';
import { IconDoc } from '../../components/icons';
import { ExternalLink } from '../../components/ExternalLink';
import { Markdown } from '../../components/Markdown';
import { PageHeader } from '../../components/PageHeader';
import { Segmented } from '../../components/Segmented';
import { LabeledField, TextField } from '../../components/Field';
import { StatusBadge } from '../../components/StatusBadge';
import { EmptyState, ErrorAlert } from '../../components/states';
import { useArticlesStore } from '../../stores/use-articles-store';
import { toast } from '../../stores/use-toast-store';
import './articles.css';
import { LoadGate } from '../../components/LoadGate';
import { PickList } from '../../components/PickList';
import { toggled } from '../../app/toggled';

/** A Record so a destination added to the contract must get its label here. */
const DESTINATIONS: Readonly<Record<ArticleDestination, { label: string; note: string }>> = {
  devto: { label: 'DEV', note: 'Developer blog' },
  hashnode: { label: 'Hashnode', note: 'Developer blog' },
  forum: { label: 'Forum', note: 'Discussion forum' },
  linkedin: { label: 'LinkedIn', note: 'A post with an article link card' },
  x: { label: 'X', note: 'A native article' },
};
const DESTINATION_IDS = Object.keys(DESTINATIONS) as ArticleDestination[];

const STARTER =
  '## Why this matters\n\nWrite your article in **Markdown**. The preview shows how it reads.\n';

export function ArticlesScreen() {
  const { articles, load } = useArticlesStore(useShallow((s) => pick(s, 'articles', 'load')));
  const [selected, setSelected] = useState<string | 'new'>('new');
  useEffect(() => void load(), [load]);

  const list = articles.data ?? [];
  const current = selected === 'new' ? null : (list.find((a) => a.id === selected) ?? null);

  return (
    <div className="page">
      <PageHeader
        title="Articles"
        subtitle="Long-form writing, published to developer blogs, the forum, LinkedIn and X."
        actions={
          <button type="button" className="btn btn--primary" onClick={() => setSelected('new')}>
            New article
          </button>
        }
      />
      <div className="grid-sidebar">
        <section className="card" aria-labelledby="articles-list-title">
          <div className="card__header">
            <h2 id="articles-list-title">Your articles</h2>
          </div>
          <LoadGate state={articles} what="the articles" onRetry={load} freshness>
            <PickList
              label="Articles"
              items={list}
              picked={selected}
              onPick={(a) => setSelected(a.id)}
              itemClass="article-item"
              empty={
                <EmptyState title="No articles yet" icon={<IconDoc size={20} />}>
                  Write your first one on the right.
                </EmptyState>
              }
            >
              {(a) => (
                <>
                  <span className="article-item__title">{plainName(a.title)}</span>
                  <span className="article-item__meta">
                    <StatusBadge status={a.status} />
                    <span className="faint">{formatDate(a.updated_at)}</span>
                  </span>
                </>
              )}
            </PickList>
          </LoadGate>
        </section>
        {current ? (
          <ArticleView article={current} onDeleted={() => setSelected('new')} />
        ) : (
          <ArticleEditor key={selected} onCreated={(id) => setSelected(id)} />
        )}
      </div>
    </div>
  );
}

function ArticleEditor({ onCreated }: { readonly onCreated: (id: string) => void }) {
  const { create, saving } = useArticlesStore(useShallow((s) => pick(s, 'create', 'saving')));
  const [title, setTitle] = useState('');
  const [body, setBody] = useState(STARTER);
  const [tags, setTags] = useState('');
  const [canonical, setCanonical] = useState('');
  const [destinations, setDestinations] = useState<ReadonlySet<ArticleDestination>>(new Set(['devto']));
  const [mode, setMode] = useState<'split' | 'write' | 'preview'>('split');
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);

  const submit = async (action: 'draft' | 'publish', e?: FormEvent) => {
    e?.preventDefault();
    setError(null);
    const tagList = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const r = await create({
      title: title.trim(),
      body_markdown: body,
      destinations: [...destinations],
      action,
      ...(tagList.length > 0 ? { tags: tagList } : {}),
      ...(canonical.trim() ? { canonical_url: canonical.trim() } : {}),
    });
    if (!r.ok) {
      setError(r.error);
      return;
    }
    const results = r.value.results ?? r.value.article.targets;
    const failed = results.filter((t) => t.status === 'failed').length;
    toast(
      failed > 0 ? 'warning' : 'success',
      action === 'draft'
        ? 'Draft saved.'
        : failed > 0
          ? `Published with ${failed} failed destination(s).`
          : 'Article published.',
    );
    onCreated(r.value.article.id);
  };

  const invalid = title.trim().length === 0 || body.trim().length === 0 || destinations.size === 0;

  return (
    <form className="card" aria-label="New article" onSubmit={(e) => void submit('publish', e)}>
      <div className="card__header">
        <h2>New article</h2>
        <Segmented
          label="Editor layout"
          value={mode}
          options={[
            { value: 'write', label: 'Write' },
            { value: 'split', label: 'Split' },
            { value: 'preview', label: 'Preview' },
          ]}
          onChange={setMode}
        />
      </div>
      <div className="card__body form-stack">
        <TextField
          id="article-title"
          label="Title"
          className="article-title-input"
          value={title}
          maxLength={300}
          onValue={setTitle}
          placeholder="A title that earns the click"
        />
        <div className={`article-editor article-editor--${mode}`}>
          {mode !== 'preview' ? (
            <LabeledField id="article-body" label="Body (Markdown)">
              <textarea
                id="article-body"
                className="textarea article-editor__input mono"
                value={body}
                onChange={(e) => setBody(e.target.value)}
              />
            </LabeledField>
          ) : null}
          {mode !== 'write' ? (
            <div className="field">
              <span className="field__label" id="article-preview-label">
                Preview
              </span>
              <div className="article-editor__preview" role="region" aria-labelledby="article-preview-label">
                {title ? <h1 className="article-editor__preview-title">{title}</h1> : null}
                <Markdown source={body} />
              </div>
            </div>
          ) : null}
        </div>
        <div className="form-grid">
          <TextField
            id="article-tags"
            label="Tags"
            hint="Comma separated, up to 10."
            value={tags}
            onValue={setTags}
            placeholder="typescript, electron"
            aria-describedby="article-tags-hint"
          />
          <TextField
            id="article-canonical"
            label="Canonical URL"
            type="url"
            value={canonical}
            onValue={setCanonical}
            placeholder="https://your.blog/post"
          />
        </div>
        <fieldset className="choice-group destinations">
          <legend className="field__label">Destinations</legend>
          {DESTINATION_IDS.map((d) => (
            <label key={d} className="choice">
              <input
                type="checkbox"
                checked={destinations.has(d)}
                onChange={() => setDestinations(toggled(destinations, d))}
              />
              <span>
                <strong>{DESTINATIONS[d].label}</strong>
                <span className="faint"> · {DESTINATIONS[d].note}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {error ? <ErrorAlert error={error} title="The article was not saved" /> : null}
        <div className="btn-row btn-row--end">
          <button
            type="button"
            className="btn"
            disabled={invalid || saving !== null}
            onClick={() => void submit('draft')}
          >
            {saving === 'draft' ? 'Saving…' : 'Save draft'}
          </button>
          <button type="submit" className="btn btn--primary" disabled={invalid || saving !== null}>
            {saving === 'publish' ? 'Publishing…' : 'Publish'}
          </button>
        </div>
      </div>
    </form>
  );
}

function ResultRow({ result }: { readonly result: ArticleTargetResult }) {
  return (
    <li className="row row--wrap destination-result" aria-label={DESTINATIONS[result.destination].label}>
      <strong>{DESTINATIONS[result.destination].label}</strong>
      <StatusBadge status={result.status} />
      {result.url ? <ExternalLink className="destination-result__url" href={result.url} /> : null}
      {result.error ? <span className="destination-result__error">{result.error}</span> : null}
    </li>
  );
}

function ArticleView({ article, onDeleted }: { readonly article: Article; readonly onDeleted: () => void }) {
  const remove = useArticlesStore((s) => s.remove);
  const [error, setError] = useState<Readonly<BridgeError> | null>(null);
  const [confirm, setConfirm] = useState(false);
  return (
    <article className="card" aria-label={article.title}>
      <div className="card__header">
        <div>
          <h2>{plainName(article.title)}</h2>
          <p className="muted">
            Created {formatDateTime(article.created_at)} · updated {formatDateTime(article.updated_at)}
          </p>
        </div>
        <StatusBadge status={article.status} />
      </div>
      <div className="card__body form-stack">
        <section aria-labelledby="article-results-title">
          <h3 id="article-results-title" className="section-title">
            Destinations
          </h3>
          <ul className="list-stack destination-results" aria-label="Results per destination">
            {article.targets.map((t) => (
              <ResultRow key={t.destination} result={t} />
            ))}
          </ul>
        </section>
        <section className="article-view__body" aria-label="Article text">
          <Markdown source={article.body_markdown} />
        </section>
        {error ? <ErrorAlert error={error} title="Not deleted" /> : null}
        <div className="btn-row btn-row--end">
          {confirm ? (
            <>
              <span className="muted">
                Delete this article here? Copies already published elsewhere stay.
              </span>
              <button type="button" className="btn btn--small" onClick={() => setConfirm(false)}>
                Keep
              </button>
              <button
                type="button"
                className="btn btn--small btn--danger"
                onClick={() =>
                  void remove(article.id).then((r) => {
                    if (r.ok) {
                      toast('success', 'Article deleted.');
                      onDeleted();
                    } else setError(r.error);
                  })
                }
              >
                Yes, delete
              </button>
            </>
          ) : (
            <button type="button" className="btn btn--small btn--danger" onClick={() => setConfirm(true)}>
              Delete
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
