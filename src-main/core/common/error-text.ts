/** The message of anything thrown: an Error's own message, else its string form. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
