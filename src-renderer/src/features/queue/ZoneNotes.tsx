import { weekdayName } from '../../components/DayPicker';
import { formatWallTime } from '../../app/wall-time';
import type { AccountAdd } from './slot-plan';

/** Accounts that keep their posting times in another zone: where the new time lands there, said before saving. */
export function ZoneNotes({
  plan,
  name,
}: {
  readonly plan: readonly AccountAdd[];
  readonly name: (id: string) => string;
}) {
  const kept = plan.filter((p) => p.keptZone && p.added.length > 0);
  if (kept.length === 0) return null;
  return (
    <ul className="queue-zone-notes field__hint" aria-label="Accounts in another time zone">
      {kept.map((p) => (
        <li key={p.account_id}>
          {name(p.account_id)} keeps its posting times in {p.keptZone} time: saved there as{' '}
          {p.added.map((s) => `${weekdayName(s.weekday, 'short')} ${formatWallTime(s.time)}`).join(', ')}.
        </li>
      ))}
    </ul>
  );
}
