/**
 * docs/desktop.md tells users which fuses the packaged app has and which paths are unpacked from the
 * asar. This holds that page and electron-builder.config.cjs to each other, in both directions.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../../../electron-builder.config.cjs') as {
  electronFuses: Record<string, boolean>;
  asarUnpack: string[];
  npmRebuild: boolean;
  protocols: Array<{ schemes: string[] }>;
  publish: Array<{ provider: string }>;
  linux: { target: string[]; maintainer?: string };
  deb: Record<string, unknown>;
  extraMetadata?: Record<string, unknown>;
  win: { target: string[] };
  mac: { target: string[] };
};
const doc = readFileSync(new URL('../../../docs/desktop.md', import.meta.url), 'utf8');

/** The rows of the first table under the `### <heading>` section, as arrays of cell texts. */
function tableUnder(heading: string): string[][] {
  const start = doc.indexOf(`### ${heading}`);
  if (start < 0) throw new Error(`docs/desktop.md has no "### ${heading}" section`);
  const rest = doc.slice(start).split('\n').slice(1);
  const end = rest.findIndex((l) => /^#{1,3} /.test(l));
  const lines = (end < 0 ? rest : rest.slice(0, end)).filter((l) => l.trim().startsWith('|'));
  return lines
    .slice(2) // header and separator
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
}

const code = (cell: string | undefined): string => {
  const m = /^`([^`]+)`$/.exec(cell ?? '');
  if (!m?.[1]) throw new Error(`expected a \`code\` cell, got "${cell}"`);
  return m[1];
};

/** `RunAsNode` → `runAsNode`: the fuse's name in @electron/fuses and its key in electron-builder. */
const configKey = (fuse: string): string => fuse.charAt(0).toLowerCase() + fuse.slice(1);

describe('electron-builder.config.cjs matches docs/desktop.md', () => {
  it('sets exactly the fuses the table lists, to the documented values', () => {
    const rows = tableUnder('Fuses');
    expect(rows.length).toBeGreaterThan(0);
    const documented = Object.fromEntries(
      rows.map((r) => {
        const setting = r[1];
        if (setting !== 'on' && setting !== 'off')
          throw new Error(`fuse setting must be on or off: "${setting}"`);
        return [configKey(code(r[0])), setting === 'on'];
      }),
    );
    expect(config.electronFuses).toEqual(documented);
  });

  it('has the fuses the issue requires', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('unpacks exactly the paths the table lists, in its order', () => {
    const { cliRuntimePackages } = require('../../../scripts/cli-runtime.cjs') as {
      cliRuntimePackages: (root: string) => string[];
    };
    // One row of the table stands for a pattern per package the CLI loads from node_modules.
    const documented = tableUnder('Native modules unpacked from the asar').flatMap((r) =>
      code(r[0]) === 'node_modules/<each CLI runtime package>/**'
        ? cliRuntimePackages(process.cwd()).map((p) => `node_modules/${p}/**`)
        : [code(r[0])],
    );
    expect(config.asarUnpack).toEqual(documented);
    expect(config.asarUnpack).toEqual(
      expect.arrayContaining([
        'bin/postdesk.js',
        'out/cli/**',
        'node_modules/fastify/**',
        'node_modules/avvio/**',
      ]),
    );
  });

  it('is a valid electron-builder configuration (its own schema check)', async () => {
    // The check electron-builder runs before packaging, without packaging (which downloads Electron).
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (c: unknown, logger: unknown) => Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...config, electronFuses: { runAsNod: false } }, new DebugLogger(false)),
    ).rejects.toThrow(/electronFuses/);
  });

  it('ships Node-API prebuilds instead of rebuilding, registers postdesk://, publishes a feed and builds every target', () => {
    // No rebuild: the SQLite binding must carry a prebuilt binary for every platform we package.
    expect(config.npmRebuild).toBe(false);
    const prebuilds = readdirSync(join(process.cwd(), 'node_modules', 'better-sqlite3', 'prebuilds'));
    expect(prebuilds).toEqual(
      expect.arrayContaining(['linux-x64.node', 'win32-x64.node', 'darwin-x64.node', 'darwin-arm64.node']),
    );
    expect(config.protocols.flatMap((p) => p.schemes)).toEqual(['postdesk']);
    expect(config.publish.map((p) => p.provider)).toEqual(['generic', 'github']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toContain('dmg');
  });

  it("gives the deb package package.json's homepage and author, through electron-builder's own reading", async () => {
    const pkg = require('../../../package.json') as {
      homepage?: string;
      author?: { name?: string; email?: string };
    };
    // Nothing in the config overrides them: package.json is the one place they are written.
    expect(config.extraMetadata?.homepage).toBeUndefined();
    expect(config.linux.maintainer).toBeUndefined();
    expect(pkg.homepage).toMatch(/^https:\/\//);

    // electron-builder's deb target computes its control fields from the app's metadata like this.
    const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget.js') as {
      default: { prototype: { computeFpmMetaInfoOptions(): Promise<Record<string, string>> } };
    };
    const { AppInfo } = require('app-builder-lib/out/appInfo.js') as {
      AppInfo: { prototype: { computePackageUrl(): Promise<string | null> } };
    };
    const info = { metadata: pkg, repositoryInfo: Promise.resolve(null) };
    const target = {
      options: { ...config.linux, ...config.deb },
      packager: {
        info,
        appInfo: {
          linuxPackageName: 'postdesk',
          computePackageUrl: () => AppInfo.prototype.computePackageUrl.call({ info, notNullDevMetadata: {} }),
        },
      },
    };
    const meta = await FpmTarget.prototype.computeFpmMetaInfoOptions.call(target);
    expect(meta).toMatchObject({
      url: pkg.homepage,
      maintainer: `${pkg.author?.name} <${pkg.author?.email}>`,
    });
    expect(meta.maintainer).not.toMatch(/example|placeholder/i);
  });
});
