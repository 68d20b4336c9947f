/**
 * `npm run bench [part…]`: runs each benchmark part, each printing its figures beside a baseline measured in
 * the same run. Parts: sandbox, media, bulk, executor, ui, local, cli, export. With no argument, all of them.
 */
const PARTS = {
  sandbox: async () => (await import('./sandbox')).benchSandbox(),
  media: async () => (await import('./media')).benchMedia(),
  bulk: async () => (await import('./bulk')).benchBulk(),
  executor: async () => (await import('./executor')).benchExecutor(),
  ui: async () => (await import('./ui')).benchUi(),
  local: async () => (await import('./local')).benchLocal(),
  cli: async () => (await import('./cli')).benchCli(),
  export: async () => (await import('./export')).benchExport(),
} as const;

type Part = keyof typeof PARTS;
const isPart = (s: string): s is Part => Object.hasOwn(PARTS, s);

const asked = process.argv.slice(2);
const unknown = asked.filter((a) => !isPart(a));
if (unknown.length > 0) {
  console.error(`unknown bench part(s): ${unknown.join(', ')}; choose from ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const parts = asked.length > 0 ? asked.filter(isPart) : (Object.keys(PARTS) as Part[]);
let failed = 0;
for (const part of parts) {
  console.log(`\n=== bench: ${part} ===`);
  try {
    await PARTS[part]();
  } catch (err) {
    failed += 1;
    console.error(`bench ${part} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
export {};
