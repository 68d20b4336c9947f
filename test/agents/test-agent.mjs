// A stand-in agent for the executor's tests. It reads the run directory the executor prepared and behaves
// as `--mode` says: ok, fail, hang, too-long, video, slow, env, wait, and name-/link-/hardlink-outside (hostile
// output naming a file outside the run directory). Steps go to stdout as `::step` lines.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const mode = opt('mode', 'ok');
const runDir = process.env.POSTDESK_RUN_DIR;
const outputFile = process.env.POSTDESK_OUTPUT;
if (!runDir || !outputFile) {
  console.error('POSTDESK_RUN_DIR and POSTDESK_OUTPUT must be set');
  process.exit(2);
}
const run = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
const task = readFileSync(join(runDir, 'task.md'), 'utf8');

// A valid 1x1 PNG, so the run media upload has a real image to send.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const step = (id, status, message = '') => console.log(`::step ${id} ${status} ${message}`.trimEnd());
const write = (output) => writeFileSync(outputFile, JSON.stringify(output));

step('think', 'started', `task has ${task.length} chars`);
if (mode === 'fail') {
  step('think', 'failed', 'giving up');
  console.error('model quota exceeded: try again tomorrow');
  process.exit(3);
}
if (mode === 'hang') {
  // A grandchild in the same process group: a timeout must take it down too.
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  writeFileSync(join(runDir, 'grandchild.pid'), String(child.pid));
  console.error('thinking very hard');
  await sleep(600_000);
}
if (mode === 'slow') await sleep(Number(opt('ms', '1000')));
if (mode === 'wait') {
  // Held until the test writes the gate file: `fail` fails the run, anything else lets it go on as `ok`.
  const gate = opt('gate');
  writeFileSync(`${gate}.waiting`, String(process.pid));
  while (!existsSync(gate)) await sleep(10);
  if (readFileSync(gate, 'utf8').trim() === 'fail') {
    step('think', 'failed', 'released to fail');
    console.error('the test failed this run');
    process.exit(3);
  }
}
if (mode === 'env') writeFileSync(join(runDir, 'env.json'), JSON.stringify(process.env));
step('think', 'completed');

step('render', 'started');
if (mode === 'too-long') {
  write({ caption: 'x'.repeat(2300), media: [] });
} else if (mode === 'video') {
  // As a well-behaved agent does: what it publishes is in its run directory (the executor takes nothing else).
  const clip = basename(opt('file'));
  copyFileSync(opt('file'), join(runDir, clip));
  write({
    caption: `Clip for ${run.scheduled_for}`,
    title: `Clip ${run.scheduled_for}`,
    media: [clip],
  });
} else if (mode === 'name-outside') {
  write({ caption: 'Look', media: [opt('file')] });
} else if (mode === 'link-outside') {
  symlinkSync(opt('file'), join(runDir, 'linked.png'));
  write({ caption: 'Look', media: ['linked.png'] });
} else if (mode === 'hardlink-outside') {
  linkSync(opt('file'), join(runDir, 'hardlinked.png'));
  write({ caption: 'Look', media: ['hardlinked.png'] });
} else if (mode === 'skip') {
  write({ caption: '', skip: 'nothing new to post today' });
} else {
  writeFileSync(join(runDir, 'image.png'), PNG);
  write({ caption: `Post for ${run.scheduled_for}`, media: ['image.png'], metadata: { mode } });
}
step('render', 'completed', 'output.json written');
