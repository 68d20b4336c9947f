import { join } from 'node:path';
import { z } from 'zod';
import { LIMITS } from '../../../../src-shared/api';
import { errorText } from '../../common/error-text';
import { runTool, type Tools } from '../../media/tools';
import { cardArgv } from '../../../../src-shared/media-input';
import { readNoFollow, writePrivateFile } from '../../files';

/**
 * The built-in caption-card agent (`resources/agents/caption-card.mjs`, run inside Postdesk): a square card
 * of one colour, captioned with the first paragraph of the automation's instructions. It needs no AI, no
 * folder and no setup, so the offline demo's automations succeed from the first minute. A run that goes
 * straight to TikTok or YouTube (auto mode, a direct upload) gets a short MP4 of the card, since those take
 * video only; every other run gets a PNG.
 */

const RunJson = z.object({
  scheduled_for: z.string().nullable().optional(),
  automation: z.object({
    name: z.string(),
    execution_mode: z.string(),
    targets: z.array(z.object({ platform: z.string() })),
  }),
});

const COLOURS = ['0x1d3557', '0x2a9d8f', '0xe76f51', '0x6d597a'];
const DIRECT_UPLOAD = new Set(['tiktok', 'youtube']);
/** task.md and run.json are the executor's, far smaller than this. */
const INPUT_MAX_BYTES = 1024 * 1024;

export interface CardAgentOptions {
  readonly runDir: string;
  readonly outputFile: string;
  readonly tools: Tools;
  readonly signal?: AbortSignal;
  readonly say: (line: string) => void;
}

export type CardAgentResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** The caption: the instructions' first paragraph (task.md is "# name", a blank line, the instructions, "---"…). */
export function cardCaption(task: string): string {
  const instructions = (task.split('\n---\n')[0] ?? '').split('\n').slice(2).join('\n').trim();
  return (instructions.split(/\n\s*\n/)[0] ?? '').slice(0, LIMITS.captionLength);
}

export async function runCardAgent(o: CardAgentOptions): Promise<CardAgentResult> {
  const step = (id: string, status: string, message = '') =>
    o.say(`::step ${id} ${status} ${message}`.trimEnd());
  let run: z.infer<typeof RunJson>;
  let task: string;
  try {
    // The executor's own inputs, in a folder an agent may write: read without following a link.
    const read = async (name: string) =>
      (await readNoFollow(join(o.runDir, name), { maxBytes: INPUT_MAX_BYTES })).toString('utf8');
    run = RunJson.parse(JSON.parse(await read('run.json')));
    task = await read('task.md');
  } catch (err) {
    return { ok: false, message: `the run's inputs could not be read: ${errorText(err)}` };
  }
  const video =
    run.automation.execution_mode === 'auto' &&
    run.automation.targets.some((t) => DIRECT_UPLOAD.has(t.platform));
  const when = new Date(run.scheduled_for ?? Date.now());
  const colour = COLOURS[(Number.isNaN(when.getTime()) ? 0 : when.getUTCDay()) % COLOURS.length];
  const file = video ? 'card.mp4' : 'card.png';
  step('render', 'started', video ? 'drawing the card as a short video' : 'drawing the card');
  try {
    await runTool(o.tools.ffmpeg(), cardArgv(colour ?? COLOURS[0]!, video, join(o.runDir, file)), {
      signal: o.signal,
    });
  } catch (err) {
    step('render', 'failed', 'ffmpeg could not draw the card');
    return { ok: false, message: `ffmpeg could not draw the card: ${errorText(err)}` };
  }
  step('render', 'completed', file);
  const caption = cardCaption(task) || run.automation.name;
  await writePrivateFile(
    o.outputFile,
    JSON.stringify(
      {
        caption,
        title: run.automation.name.slice(0, LIMITS.directUploadTitle.max) || 'Card',
        media: [file],
        metadata: { agent: 'caption-card' },
      },
      null,
      2,
    ),
  );
  step('write', 'completed', 'output.json');
  return { ok: true };
}
