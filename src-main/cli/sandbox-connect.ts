import type { StartSandboxFn } from '../core/sandbox-link';

/**
 * The CLI's way to start the sandbox in-process for `--sandbox`. Core never imports src-sandbox; the CLI (and the
 * desktop app) hand this function to createCore. Loaded on demand: most commands never need Fastify.
 */
export const startSandboxInProcess: StartSandboxFn = async (opts) => {
  const { startSandbox } = await import('../../src-sandbox/app');
  const s = await startSandbox({ ...opts, quiet: true });
  if (!s.apiKey) {
    await s.close();
    throw new Error(
      'the sandbox data directory was seeded with a fixture that has no API key; remove it or use --base-url',
    );
  }
  return { url: s.url, apiKey: s.apiKey, close: () => s.close() };
};
