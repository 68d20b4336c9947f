#!/usr/bin/env node
// An agent with no AI: one square PNG card (solid colour, made with ffmpeg) captioned with the first
// paragraph of the automation's instructions. It shows the whole contract in a few lines:
// inputs in $POSTDESK_RUN_DIR (task.md, run.json), steps on stdout, the result in $POSTDESK_OUTPUT.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const runDir = process.env.POSTDESK_RUN_DIR;
const output = process.env.POSTDESK_OUTPUT;
if (!runDir || !output) {
  console.error('run me from the Postdesk executor (POSTDESK_RUN_DIR and POSTDESK_OUTPUT are not set)');
  process.exit(2);
}
const step = (id, status, message = '') => console.log(`::step ${id} ${status} ${message}`.trimEnd());

const run = JSON.parse(readFileSync(join(runDir, 'run.json'), 'utf8'));
const task = readFileSync(join(runDir, 'task.md'), 'utf8');
// task.md: "# <name>", a blank line, the instructions, then the skill's markdown after a "---" line.
const instructions = task.split('\n---\n')[0].split('\n').slice(2).join('\n').trim();
const caption = (instructions.split(/\n\s*\n/)[0] ?? '').slice(0, 2200);

step('render', 'started', 'drawing the card');
const colours = ['0x1d3557', '0x2a9d8f', '0xe76f51', '0x6d597a'];
const colour = colours[new Date(run.scheduled_for ?? Date.now()).getUTCDay() % colours.length];
const card = join(runDir, 'card.png');
// An argument array, never a shell string.
const ffmpeg = spawnSync(
  process.env.POSTDESK_FFMPEG ?? 'ffmpeg',
  ['-y', '-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=1080x1080`, '-frames:v', '1', card],
  { encoding: 'utf8' },
);
if (ffmpeg.status !== 0) {
  step('render', 'failed', 'ffmpeg could not draw the card');
  console.error(ffmpeg.error?.message ?? ffmpeg.stderr);
  process.exit(1);
}
step('render', 'completed', card);

writeFileSync(
  output,
  JSON.stringify(
    {
      caption,
      title: run.automation.name.slice(0, 100),
      media: ['card.png'],
      metadata: { agent: 'caption-card' },
    },
    null,
    2,
  ),
);
step('write', 'completed', 'output.json');
