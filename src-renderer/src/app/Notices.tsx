import { FailureNotices } from '../components/FailureNotices';
import { Toasts } from '../components/Toasts';

/**
 * Failed deliveries and toasts, in one place below the content they are about (design.md: notices stack in one
 * place and never push the content off screen). Inside the shell it sits in the main column only, so the
 * sidebar keeps its full width and height whatever the notices hold.
 */
export function Notices() {
  return (
    <div className="notice-stack">
      <FailureNotices />
      <Toasts />
    </div>
  );
}
