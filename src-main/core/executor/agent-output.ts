import { z } from 'zod';
import { Caption, LIMITS, Slide } from '../../../src-shared/api';

/** A media file the agent produced: a path (relative to the run directory, or absolute). */
const MediaFile = z.union([
  z.string().min(1),
  z.object({ path: z.string().min(1), alt: z.string().optional() }).transform((m) => m.path),
]);

const AgentSlide = z
  .object({
    text: Slide.shape.text,
    path: z.string().min(1).optional(),
    url: z.url().optional(),
    aspect_ratio: z.string().optional(),
  })
  .refine((s) => (s.path === undefined) !== (s.url === undefined), {
    message: 'a slide needs exactly one of "path" (a file) or "url"',
  });

/**
 * What an agent writes to `output.json`. Every service limit is checked here, before a byte is sent:
 * caption 2,200, title 1 to 100, 10 media, 10 slides, slide text 500.
 */
export const AgentOutput = z
  .object({
    caption: Caption,
    title: z.string().min(LIMITS.directUploadTitle.min).max(LIMITS.directUploadTitle.max).optional(),
    media: z.array(MediaFile).max(LIMITS.mediaUrls).default([]),
    slides: z.array(AgentSlide).max(LIMITS.slides).default([]),
    metadata: z.record(z.string(), z.unknown()).optional(),
    /** Legacy queue only: skip the claimed run with this reason instead of publishing. */
    skip: z.string().min(1).max(LIMITS.runFailureMessage).optional(),
  })
  .strict();
export type AgentOutput = z.infer<typeof AgentOutput>;

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const path = issue.path.length > 0 ? issue.path.join('.') : 'output';
  if (issue.code === 'too_big') {
    let actual = '';
    const value = issue.path.reduce<unknown>(
      (v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
      input,
    );
    if (typeof value === 'string') actual = ` (got ${value.length} characters)`;
    else if (Array.isArray(value)) actual = ` (got ${value.length} items)`;
    return `${path} is over the limit of ${String(issue.maximum)}${actual}`;
  }
  if (issue.code === 'too_small') return `${path} is under the minimum of ${String(issue.minimum)}`;
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
  return `${path}: ${issue.message}`;
}

export type OutputCheck = { ok: true; output: AgentOutput } | { ok: false; problems: string[] };

/** Parses `output.json` text; the problems are written for a person reading the failed run. */
export function parseAgentOutput(text: string): OutputCheck {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse quotes the text around the fault: the file is said to be broken, none of it repeated.
    return { ok: false, problems: ['output.json is not valid JSON'] };
  }
  const parsed = AgentOutput.safeParse(raw);
  if (parsed.success) return { ok: true, output: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((i) => describeIssue(i, raw)) };
}
