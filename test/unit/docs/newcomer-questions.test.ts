import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Questions a newcomer asks, each answered by a line of the folder README where they would look: the line names
 * the files that answer it, and those files exist and still hold the answer (`holds`), so a move or a rename
 * that leaves the README behind fails here.
 */
const ROOT = process.cwd();
const QUESTIONS = [
  {
    question: 'where is the retry policy for uploads',
    readme: 'src-main/core/media/README.md',
    phrase: 'retry policy for uploads',
    answers: [{ file: 'src-main/core/media/upload-put.ts', holds: 'PUT_ATTEMPTS' }],
  },
  {
    question: 'where is the rule that a caption is ≤ 2,200',
    readme: 'src-shared/api/README.md',
    phrase: 'caption is at most 2,200 characters',
    answers: [
      { file: 'src-shared/api/limits.ts', holds: 'captionLength: 2200' },
      { file: 'src-shared/api/common.ts', holds: 'LIMITS.captionLength' },
    ],
  },
  {
    question: 'how does Publish now become an HTTP request',
    readme: 'src-renderer/src/features/compose/README.md',
    phrase: 'Publish now becomes an HTTP request',
    answers: [
      { file: 'src-renderer/src/features/compose/ComposeFooter.tsx', holds: 'Publish now' },
      { file: 'src-renderer/src/features/compose/ComposeScreen.tsx', holds: 'post.send()' },
      { file: 'src-renderer/src/features/compose/use-compose-post.ts', holds: 'createPost(' },
      { file: 'src-renderer/src/stores/use-posts-store.ts', holds: 'posts.create(' },
      { file: 'src-main/core/bridge/post-handlers.ts', holds: 'core.posts.create(' },
      { file: 'src-main/core/bridge/post-outbox.ts', holds: 'createOutbox(' },
      { file: 'src-main/core/outbox/outbox.ts', holds: 'table.insert(' },
      { file: 'src-main/core/outbox/outbox-send.ts', holds: 'client.createPost(' },
      { file: 'src-main/core/api/client.ts', holds: 'createPost' },
      { file: 'src-main/core/api/transport.ts', holds: "from 'undici'" },
    ],
  },
] as const;

/** The README's line that answers the question: the one holding its phrase. */
function answerLine(readme: string, phrase: string): string | undefined {
  return readFileSync(join(ROOT, readme), 'utf8')
    .split('\n')
    .find((l) => l.toLowerCase().includes(phrase.toLowerCase()));
}

/** A file named in a README: beside it (`upload.ts`, ../platform-rules.ts) or from the repository's root. */
function resolveNamed(readme: string, name: string): string | null {
  for (const at of [join(ROOT, dirname(readme), name), join(ROOT, name)]) if (existsSync(at)) return at;
  return null;
}

describe('the newcomer questions are answered by the folder READMEs', () => {
  for (const q of QUESTIONS) {
    it(`${q.question}: ${q.readme}`, () => {
      const line = answerLine(q.readme, q.phrase);
      expect(line, `${q.readme} has no line about "${q.phrase}"`).toBeDefined();
      for (const a of q.answers) {
        // Named as a path from the root, or by its own name when it is in the README's folder.
        const beside = dirname(a.file) === dirname(q.readme);
        const names = beside ? [a.file, a.file.slice(dirname(a.file).length + 1)] : [a.file];
        expect(
          names.some((n) => line!.includes(n)),
          `${q.readme} does not name ${a.file}`,
        ).toBe(true);
        expect(readFileSync(join(ROOT, a.file), 'utf8')).toContain(a.holds);
      }
      // Every file the line names exists.
      for (const [name] of line!.matchAll(/[\w./-]+\.tsx?\b/g)) {
        expect(
          resolveNamed(q.readme, name),
          `${q.readme} names ${name}, which does not exist`,
        ).not.toBeNull();
      }
    });
  }
});
