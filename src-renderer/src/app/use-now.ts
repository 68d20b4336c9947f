import { useEffect, useState } from 'react';
import { useConnectionStore } from '../stores/use-connection-store';

/** The current time, refreshed every `everyMs`: render code reads time from here, never from Date.now(). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(id);
  }, [everyMs]);
  return now;
}

/**
 * The service's time now: what "in the past" is judged by, as the service judges a schedule (its clock may run
 * ahead, as the sandbox's virtual one does). This computer's time moved by the offset the host learned.
 */
export function useServiceNow(everyMs = 30_000): number {
  const offset = useConnectionStore((s) => s.status?.clock_offset_ms ?? 0);
  return useNow(everyMs) + offset;
}

/** The service's time now, for an event handler (outside render). */
export function serviceNow(): number {
  return Date.now() + (useConnectionStore.getState().status?.clock_offset_ms ?? 0);
}
