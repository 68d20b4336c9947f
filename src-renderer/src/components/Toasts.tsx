import { useShallow } from 'zustand/react/shallow';
import { useToastStore } from '../stores/use-toast-store';
import { IconX } from './icons';

export function Toasts() {
  const { toasts, dismiss } = useToastStore(useShallow((s) => ({ toasts: s.toasts, dismiss: s.dismiss })));
  return (
    <div className="toasts" role="region" aria-label="Notifications" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast--${t.tone}`} role={t.tone === 'error' ? 'alert' : 'status'}>
          <p className="toast__message">{t.message}</p>
          <button
            type="button"
            className="btn btn--ghost btn--icon btn--small"
            aria-label="Dismiss"
            onClick={() => dismiss(t.id)}
          >
            <IconX size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
