/**
 * The service's reason for a failed row, in words: its field paths (`targets.0.social_account_id: …`) become
 * the column and which entry ("targets, the 1st entry: …"). Text that names no path is kept as it is.
 */
export function reasonInWords(reason: string): string {
  return reason
    .split(/;\s+/)
    .map((part) => {
      const m = /^([a-z_]+)((?:\.[a-z0-9_]+)*):\s+(.*)$/s.exec(part);
      if (!m) return part;
      const [, column, rest, message] = m as unknown as [string, string, string, string];
      const index = /\.(\d+)/.exec(rest)?.[1];
      const which = index !== undefined ? `, the ${ordinal(Number(index) + 1)} entry` : '';
      return `${column}${which}: ${message}`;
    })
    .join('; ');
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}
