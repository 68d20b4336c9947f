import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { readApiKeyFile, resolveApiKeyWithSource } from '../../core/secrets/secret-store';
import {
  installService,
  launchdLogFile,
  runCommand,
  serviceStatus,
  uninstallService,
  type ServiceHost,
} from '../../core/service/install';
import type { ServiceSpec } from '../../core/service/spec';
import type { CliDeps } from '../context';
import { pathExistsSync, realPathSync } from '../../core/files';

/** The daemon's flags that a service entry repeats, as `postdesk executor` takes them. */
const PASSED_FLAGS = [
  ['name', '--name'],
  ['agentType', '--agent-type'],
  ['folder', '--folder'],
  ['concurrency', '--concurrency'],
  ['syncInterval', '--sync-interval'],
  ['missed', '--missed'],
  ['grace', '--grace'],
  ['timeout', '--timeout'],
  ['stopGrace', '--stop-grace'],
] as const;

/**
 * The CLI's entry script: the one this process was started with, else the package's own `bin/postdesk.js`,
 * found upward from this module (in the sources or in the built out/cli alike).
 */
function cliEntry(): string {
  const started = process.argv[1];
  if (started && /^postdesk(\.[cm]?js)?$/.test(basename(started))) return realPathSync(started);
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!pathExistsSync(join(dir, 'bin', 'postdesk.js'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('the postdesk entry script (bin/postdesk.js) was not found');
    dir = up;
  }
  return join(dir, 'bin', 'postdesk.js');
}

function hostOf(deps: CliDeps): ServiceHost {
  return {
    platform: process.platform,
    home: deps.io.env.HOME || homedir(),
    env: deps.io.env,
    uid: process.getuid?.() ?? 0,
    tmpDir: tmpdir(),
    run: runCommand,
  };
}

/** `postdesk executor service install|uninstall|status`: the daemon as a systemd, launchd or Task Scheduler entry. */
export function registerExecutorServiceCommand(executor: Command, deps: CliDeps): void {
  const service = executor
    .command('service')
    .description(
      'run the executor as a service of this machine (systemd user unit, launchd agent, Task Scheduler entry)',
    );

  service
    .command('install')
    .description(
      'write the service entry with the executor flags given (--name, --agent-type, --folder, …) and start it',
    )
    .option(
      '--key-file <path>',
      'the API key file the service reads (POSTDESK_API_KEY_FILE; 0600); default: the keychain (`postdesk login`)',
    )
    .option('--no-start', 'write the entry only: do not enable or start it')
    .action(async (_flags: unknown, self: Command) => {
      const out = deps.output(self);
      const env = deps.io.env;
      const flags = self.optsWithGlobals<
        Record<string, string | boolean | undefined> & {
          keyFile?: string;
          start: boolean;
          baseUrl?: string;
          sandbox?: boolean;
        }
      >();
      const host = hostOf(deps);
      const serviceEnv: Record<string, string> = {};
      const keyFile = flags.keyFile ?? env.POSTDESK_API_KEY_FILE;
      const notes: string[] = [];
      if (keyFile) {
        const path = resolve(keyFile);
        // Checked now (present, not empty, 0600) so a broken file fails here rather than in a restart loop.
        readApiKeyFile(path);
        serviceEnv.POSTDESK_API_KEY_FILE = path;
      } else if (!flags.sandbox) {
        const found = await resolveApiKeyWithSource(deps.local().secrets, {}).catch(() => null);
        if (!found || found.source === 'none')
          notes.push(
            'no API key is in the keychain: run `postdesk login`, or install with --key-file <file>',
          );
      }
      if (env.POSTDESK_API_KEY)
        notes.push('POSTDESK_API_KEY is not carried into the service; it reads the keychain or --key-file');
      if (env.POSTDESK_DATA_DIR) serviceEnv.POSTDESK_DATA_DIR = resolve(env.POSTDESK_DATA_DIR);
      // The agents, ffmpeg and bwrap the service finds are the ones this shell finds.
      if (host.platform !== 'win32' && env.PATH) serviceEnv.PATH = env.PATH;

      const args = [cliEntry()];
      if (flags.baseUrl) args.push('--base-url', flags.baseUrl);
      if (flags.sandbox) args.push('--sandbox');
      args.push('executor');
      for (const [key, flag] of PASSED_FLAGS) {
        const v = flags[key];
        // Only what was typed: the daemon's own defaults stay its defaults.
        if (typeof v === 'string' && executor.getOptionValueSource(key) === 'cli')
          args.push(flag, key === 'folder' ? resolve(v) : v);
      }
      const stopGraceSeconds = Number(flags.stopGrace ?? 30);
      const spec: ServiceSpec = {
        program: process.execPath,
        args,
        env: serviceEnv,
        workingDirectory: host.home,
        stopGraceSeconds: Number.isFinite(stopGraceSeconds) ? stopGraceSeconds : 30,
        ...(host.platform === 'darwin' ? { logFile: launchdLogFile(host.home) } : {}),
      };
      const result = await installService(spec, host, { start: flags.start });
      out.result(
        {
          platform: host.platform,
          location: result.location,
          started: result.started,
          command: [spec.program, ...spec.args],
          environment: Object.keys(spec.env),
          notes,
        },
        () => {
          out.note(`wrote ${result.location}`);
          if (result.started) out.note('the executor service is enabled and running');
          else if (host.platform === 'linux')
            out.note(
              'start it with: systemctl --user daemon-reload && systemctl --user enable --now postdesk-executor.service',
            );
          if (host.platform === 'linux')
            out.note(
              'to keep it running while you are logged out: loginctl enable-linger (once, for your user)',
            );
          for (const n of notes) out.note(n);
        },
      );
    });

  service
    .command('uninstall')
    .description('stop the service and remove its entry')
    .option('--no-stop', 'remove the entry only: do not call the service manager')
    .action(async (_flags: unknown, self: Command) => {
      const out = deps.output(self);
      const { stop } = self.opts<{ stop: boolean }>();
      const r = await uninstallService(hostOf(deps), { stop });
      out.result({ location: r.location, removed: r.removed }, () =>
        out.note(r.removed ? `removed ${r.location}` : `no service entry at ${r.location}`),
      );
    });

  service
    .command('status')
    .description('whether the service entry exists, and what the service manager says of it')
    .action(async (_flags: unknown, self: Command) => {
      const out = deps.output(self);
      const s = await serviceStatus(hostOf(deps));
      out.result({ ...s }, () =>
        out.fields([
          ['entry', s.location],
          ['installed', s.installed ? 'yes' : 'no'],
          ['state', s.state ?? (s.problem ? `unknown: ${s.problem}` : 'unknown')],
          ['pid', s.pid],
        ]),
      );
    });
}
