import type { ReactNode } from 'react';
import type { BridgeError } from '../../../src-shared/ipc';
import { describeError } from '../app/describe-error';
import { IconAlert, IconInbox } from './icons';

export function LoadingState({ label = 'Loading…' }: { readonly label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({
  title,
  children,
  action,
  icon,
}: {
  readonly title: string;
  readonly children?: ReactNode;
  readonly action?: ReactNode;
  readonly icon?: ReactNode;
}) {
  return (
    <div className="state">
      <div className="state__icon" aria-hidden="true">
        {icon ?? <IconInbox size={20} />}
      </div>
      <p className="state__title">{title}</p>
      {children ? <div className="state__text">{children}</div> : null}
      {action}
    </div>
  );
}

export function ErrorState({
  error,
  title = 'Something went wrong',
  onRetry,
}: {
  readonly error: Readonly<BridgeError>;
  readonly title?: string;
  readonly onRetry?: () => void;
}) {
  return (
    <div className="state state--error" role="alert">
      <div className="state__icon" aria-hidden="true">
        <IconAlert size={20} />
      </div>
      <p className="state__title">{title}</p>
      <p className="state__text">{describeError(error)}</p>
      {onRetry ? (
        <button type="button" className="btn" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** An inline error beside a form or an action. */
export function ErrorAlert({
  error,
  context,
  title,
}: {
  readonly error: Readonly<BridgeError>;
  readonly context?: Parameters<typeof describeError>[1];
  readonly title?: string;
}) {
  return (
    <div className="alert alert--error" role="alert">
      <IconAlert size={16} />
      <div>
        {title ? <p className="alert__title">{title}</p> : null}
        <p>{describeError(error, context)}</p>
      </div>
    </div>
  );
}
