import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launcherFailureText } from '../../../../src-main/core/command-line/install';

describe('launcherFailureText', () => {
  it('says a real file-system failure in words, without its code or the path it names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'postdesk-cl-'));
    try {
      const file = join(dir, 'postdesk');
      await writeFile(file, 'x');
      // Writing below a file, not a folder: the system answers ENOTDIR and names the path.
      const err = await writeFile(join(file, 'inside'), 'x').then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as NodeJS.ErrnoException).code).toBe('ENOTDIR');
      const text = launcherFailureText(err);
      expect(text).toMatch(/^The command could not be changed/);
      expect(text).not.toContain('ENOTDIR');
      expect(text).not.toContain(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('names a full disk', () => {
    const err = Object.assign(new Error("ENOSPC: no space left on device, open '/x/postdesk'"), {
      code: 'ENOSPC',
    });
    expect(launcherFailureText(err)).toBe(
      'The command could not be changed: the disk is full. Free some space and try again.',
    );
  });
});
