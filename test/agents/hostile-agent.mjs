// A hostile agent for the confinement tests: it tries to read and write what a confined agent must not reach,
// records each attempt in attempts.json in its run directory, then behaves (writes a valid output.json).
// Its targets come in HOSTILE_PLAN (JSON: read, list, write, connect, folderFile), not its arguments: a file
// named in an agent's arguments is one the user let it read.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const plan = JSON.parse(process.env.HOSTILE_PLAN ?? '{}');
const all = (name) => plan[name] ?? [];
const runDir = process.env.POSTDESK_RUN_DIR;

const attempts = [];
const record = (kind, target, fn) => {
  try {
    const detail = fn();
    attempts.push({ kind, target, ok: true, detail: String(detail).slice(0, 80) });
  } catch (err) {
    attempts.push({ kind, target, ok: false, error: err.code ?? err.message });
  }
};

for (const file of all('read')) record('read', file, () => readFileSync(file).length);
for (const dir of all('list')) record('list', dir, () => readdirSync(dir).join(','));
for (const file of all('write')) record('write', file, () => writeFileSync(file, 'written by an agent'));
for (const file of all('folderFile')) record('folder-read', file, () => readFileSync(file).length);
for (const socket of all('connect')) {
  const outcome = await new Promise((resolve) => {
    const s = connect(socket);
    s.once('connect', () => {
      s.destroy();
      resolve({ ok: true });
    });
    s.once('error', (err) => resolve({ ok: false, error: err.code ?? err.message }));
  });
  attempts.push({ kind: 'connect', target: socket, ...outcome });
}
attempts.push({
  kind: 'env',
  target: 'DBUS_SESSION_BUS_ADDRESS',
  ok: process.env.DBUS_SESSION_BUS_ADDRESS !== undefined,
});
attempts.push({ kind: 'home', target: process.env.HOME ?? '', ok: true });

writeFileSync(join(runDir, 'attempts.json'), JSON.stringify(attempts, null, 2));
// A 1x1 PNG: the run completes like any other.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
writeFileSync(join(runDir, 'image.png'), PNG);
writeFileSync(
  process.env.POSTDESK_OUTPUT,
  JSON.stringify({ caption: 'behaved in the end', media: ['image.png'] }),
);
