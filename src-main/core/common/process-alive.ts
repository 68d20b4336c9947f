/**
 * Whether a process with this id exists. Signal 0 checks without sending anything; EPERM means it exists but belongs
 * to someone else, which still counts as alive for a lock holder.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
