/**
 * The files of a drop, folders included: a browser hands a dropped folder over as a directory entry,
 * so walk it (`webkitGetAsEntry`) and collect its files. Items without an entry (a synthetic
 * DataTransfer, some hosts) fall back to `getAsFile()`.
 */
export async function collectDroppedFiles(data: DataTransfer): Promise<File[]> {
  const items = [...data.items].filter((i) => i.kind === 'file');
  if (items.length === 0) return [...data.files];
  const entries = items.map((i) => ({ entry: i.webkitGetAsEntry?.() ?? null, file: i.getAsFile() }));
  const out: File[] = [];
  for (const { entry, file } of entries) {
    if (entry?.isDirectory) out.push(...(await readDirectory(entry as FileSystemDirectoryEntry)));
    else if (file) out.push(file);
  }
  return out;
}

const MAX_FILES = 500;

async function readDirectory(dir: FileSystemDirectoryEntry, depth = 0): Promise<File[]> {
  if (depth > 8) return [];
  const entries = await readAllEntries(dir.createReader());
  const out: File[] = [];
  for (const entry of entries) {
    if (out.length >= MAX_FILES) break;
    if (entry.isFile) out.push(await fileOf(entry as FileSystemFileEntry));
    else if (entry.isDirectory)
      out.push(...(await readDirectory(entry as FileSystemDirectoryEntry, depth + 1)));
  }
  return out.filter((f) => !f.name.startsWith('.'));
}

/** readEntries answers in chunks (100 in Chrome) until it answers an empty list. */
async function readAllEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const all: FileSystemEntry[] = [];
  for (;;) {
    const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (chunk.length === 0) return all;
    all.push(...chunk);
  }
}

const fileOf = (entry: FileSystemFileEntry): Promise<File> =>
  new Promise((resolve, reject) => entry.file(resolve, reject));
