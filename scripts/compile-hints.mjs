/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, first line of a script): every function of the chunk
 * is compiled when the chunk loads, not lazily at its first call. The Posts chunks are fetched right after the app
 * starts (routes.tsx), so their code is compiled then, in that idle time, instead of inside the task that paints
 * the first page of posts: a Chromium trace put 4.4 ms of lazy compiling in that task (docs/ui.md, "First render").
 * Both renderer builds (vite.web.config.ts, electron.vite.config.ts) add it through `postBanner`, after
 * minification, which would drop a comment added earlier.
 */

/** The chunks the Posts timeline's first paint runs: the screen (with the virtualiser) and its cards' parts. */
export const EAGER_CHUNKS = /^(PostsScreen|PostGroupParts)$/;

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** `output.postBanner`: the hint for the chunks named above, nothing for the others. */
export function compileHint(chunk) {
  return EAGER_CHUNKS.test(chunk.name) ? COMPILE_HINT : '';
}
