/** Where the host writes its log, for a person asked to send it; nothing where the host keeps no log file. */
export function LogFileNote({ file }: { readonly file: string | null | undefined }) {
  if (!file) return null;
  return (
    <p className="faint settings__about">
      Log file (secrets removed): <span className="mono">{file}</span>
    </p>
  );
}
