import type { ReactNode } from 'react';
import type { Loadable } from '../stores/loadable';
import { ErrorState, LoadingState } from './states';

interface FirstLoadProps {
  readonly state: Loadable<unknown>;
  /** What the spinner says while nothing has come yet. */
  readonly loading: string;
  /** The title of the error shown when the first load failed. */
  readonly failed: string;
  onRetry(): void;
  /** What shows once there is something (or nothing asked yet); a reload keeps it in place. */
  readonly children: ReactNode;
}

/** Before the first answer: a spinner, or the failure with Retry. After it: the content, kept through reloads. */
export function FirstLoad({ state, loading, failed, onRetry, children }: FirstLoadProps) {
  if (state.data === null && state.loading) return <LoadingState label={loading} />;
  if (state.data === null && state.error)
    return <ErrorState error={state.error} title={failed} onRetry={onRetry} />;
  return <>{children}</>;
}
