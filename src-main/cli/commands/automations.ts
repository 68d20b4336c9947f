import { Option, type Command } from 'commander';
import type { z } from 'zod';
import { CreateAutomationInput, UpdateAutomationInput } from '../../../src-shared/api/automation-editing';
import { EXECUTION_MODES, type Automation } from '../../../src-shared/api/automations';
import { ValidationError } from '../../core/api/errors';
import { isTimeZone } from '../../core/bulk/fields';
import { BridgeFault } from '../../core/bridge/bridge-fault';
import { createAutomationEditing } from '../../core/bridge/automation-editing';
import type { Core } from '../../core/services';
import { collect, existingFile, localZoneOf, parseTargets } from '../args';
import type { CliDeps } from '../context';
import { NotFoundError, RefusedError, UnreachableError } from '../exit-codes';
import { truncate, type Output } from '../output';
import { VERSION } from '../version';
import { readTextFileSync } from '../../core/files';
import { commandGroup, defaultCommand } from '../command-group';

interface EditOpts {
  name?: string;
  cron?: string;
  timezone?: string;
  mode?: (typeof EXECUTION_MODES)[number];
  queue?: 'local' | 'legacy';
  instructions?: string;
  instructionsFile?: string;
  skill?: string;
  target: string[];
  executor?: string;
}

/** The editing fields' paths as the flags that set them (`schedule.cron` is `--cron`). */
const FLAG_OF: Readonly<Record<string, string>> = {
  'schedule.cron': 'cron',
  'schedule.timezone': 'timezone',
  schedule: 'cron',
  execution_mode: 'mode',
  executor_id: 'executor',
  targets: 'target',
};

const flagOf = (path: string): string => {
  const head = Object.keys(FLAG_OF).find((k) => path === k || path.startsWith(`${k}.`));
  return `--${head ? FLAG_OF[head] : (path.split('.')[0] ?? path)}`;
};

/** Checked here against the same schema the screen and MCP use, so a mistake is exit 2 naming the flag. */
function checked<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = ValidationError.fromZod(r.error).issues;
  throw new ValidationError(
    issues.map((i) => ({ path: flagOf(i.path), message: i.message })),
    null,
    'argument',
  );
}

/** The fields the options give; `create` fills the schedule's zone with this machine's when it is not given. */
function fieldsOf(o: EditOpts, zone: string | null): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  if (o.name !== undefined) f.name = o.name;
  if (o.timezone !== undefined && !isTimeZone(o.timezone)) {
    throw new ValidationError(
      [{ path: '--timezone', message: `"${o.timezone}" is not an IANA time zone (e.g. Europe/Berlin)` }],
      null,
      'argument',
    );
  }
  if (o.cron !== undefined || o.timezone !== undefined) {
    f.schedule = { cron: o.cron, timezone: o.timezone ?? zone };
  }
  if (o.mode !== undefined) f.execution_mode = o.mode;
  if (o.queue !== undefined) f.queue = o.queue;
  if (o.instructions !== undefined && o.instructionsFile !== undefined) {
    throw new ValidationError(
      [{ path: '--instructions', message: 'give --instructions or --instructions-file, not both' }],
      null,
      'argument',
    );
  }
  if (o.instructions !== undefined) f.instructions = o.instructions;
  if (o.instructionsFile !== undefined) {
    f.instructions = readTextFileSync(existingFile(o.instructionsFile, 'instructions-file'));
  }
  if (o.skill !== undefined) {
    const at = o.skill.lastIndexOf('@');
    if (o.skill === 'none') f.skill = null;
    else if (at < 1 || at === o.skill.length - 1) {
      throw new ValidationError(
        [
          {
            path: '--skill',
            message: `"${o.skill}" must be id@version (see \`postdesk skills list\`), or none`,
          },
        ],
        null,
        'argument',
      );
    } else f.skill = { id: o.skill.slice(0, at), version: o.skill.slice(at + 1) };
  }
  if (o.target.length) f.targets = parseTargets(o.target);
  if (o.executor !== undefined) f.executor_id = o.executor === 'none' ? null : o.executor;
  return f;
}

/** A refusal of the editing path, with the exit code of its kind: bad input 2, refused 3, unreachable 4. */
function cliError(e: unknown): unknown {
  if (!(e instanceof BridgeFault)) return e;
  if (e.kind === 'invalid_input') {
    return new ValidationError(
      (e.issues ?? [{ path: '', message: e.message }]).map((i) => ({
        // The screen's fields join the schedule's two parts; its words say which one.
        path: !i.path
          ? ''
          : i.path === 'schedule' && /time zone/.test(i.message)
            ? '--timezone'
            : flagOf(i.path),
        message: i.message,
      })),
      null,
      'argument',
    );
  }
  if (e.kind === 'not_found') return new NotFoundError(e.message);
  if (e.kind === 'network') return new UnreachableError(e.message);
  if (e.kind === 'api') return new RefusedError(e.message);
  return new Error(e.message);
}

/** Creating and editing through the service's MCP tools, as the Automations screen does (core/bridge). */
function editingFor(core: Core) {
  return createAutomationEditing({
    api: () => Promise.resolve(core.client),
    status: () =>
      Promise.resolve({
        state: 'connected',
        base_url: core.client.baseUrl,
        offline: core.endpoint.sandbox !== null,
        has_key: true,
        message: null,
      }),
    version: VERSION,
  });
}

function printAutomations(out: Output, list: readonly Automation[]): void {
  out.table(
    ['name', 'id', 'status', 'mode', 'queue', 'schedule', 'targets', 'rev'],
    list.map((a) => [
      truncate(a.name, 30),
      a.id,
      a.status,
      a.execution_mode,
      a.queue,
      `${a.schedule.cron} (${a.schedule.timezone})`,
      a.targets.map((t) => t.platform).join(', '),
      a.revision,
    ]),
  );
}

/** The options `create` and `edit` share; `create` requires --name and --cron. */
const editOptions = (c: Command, creating: boolean): Command =>
  c
    .option('--name <text>', 'the name (at most 200 characters)')
    .option('--cron <expr>', 'when it runs: 5-field cron, e.g. "0 9 * * 1-5"')
    .option(
      '--timezone <zone>',
      creating ? "IANA zone of the schedule (default: this machine's)" : 'IANA zone of the schedule',
    )
    .addOption(new Option('--mode <mode>', 'draft (drafts for review) or auto').choices(EXECUTION_MODES))
    .addOption(new Option('--queue <queue>', 'local (this machine) or legacy').choices(['local', 'legacy']))
    .option('--instructions <text>', 'what the agent is asked to do')
    .option('--instructions-file <file>', 'the instructions from a file')
    .option('--skill <id@version>', 'a skill the agent follows (see `postdesk skills list`), or none')
    .option('-t, --target <platform:account_id>', 'a target; repeat or separate with commas', collect, [])
    .option('--executor <id>', 'the executor that runs it, or none');

export function registerAutomationsCommand(program: Command, deps: CliDeps): void {
  const automations = commandGroup(
    program,
    'automations',
    'scheduled agent runs: list; create, edit, pause and resume where the service allows it (the sandbox; a service edits them in its dashboard)',
  );
  defaultCommand(automations, 'list', 'every automation with its schedule, mode and targets').action(
    async (_opts: unknown, cmd: Command) => {
      const out = deps.output(cmd);
      const core = await deps.core(cmd);
      const { automations: list } = await out.spin('listing automations', () =>
        core.client.listAutomations(),
      );
      out.result({ automations: list }, () => printAutomations(out, list));
    },
  );

  const change = async (cmd: Command, what: string, run: (core: Core) => Promise<Automation>) => {
    const out = deps.output(cmd);
    const core = await deps.core(cmd);
    let a: Automation;
    try {
      a = await out.spin(what, () => run(core));
    } catch (e) {
      throw cliError(e);
    }
    out.result({ automation: a }, () => printAutomations(out, [a]));
  };

  editOptions(automations.command('create').description('a new automation; it starts active'), true).action(
    async (opts: EditOpts, cmd: Command) => {
      if (opts.name === undefined || opts.cron === undefined) {
        throw new ValidationError(
          [
            {
              path: opts.name === undefined ? '--name' : '--cron',
              message: 'is required to create an automation',
            },
          ],
          null,
          'argument',
        );
      }
      const input = checked(CreateAutomationInput, fieldsOf(opts, localZoneOf(deps.io.env)));
      await change(cmd, 'creating the automation', (core) => editingFor(core).create(input));
    },
  );

  editOptions(
    automations
      .command('edit')
      .argument('<id>', 'the automation (see `postdesk automations list`)')
      .description('change the fields given; the others stay'),
    false,
  ).action(async (id: string, opts: EditOpts, cmd: Command) => {
    if (opts.timezone !== undefined && opts.cron === undefined) {
      throw new ValidationError(
        [
          {
            path: '--timezone',
            message: 'give --cron with it: a schedule is its cron and its zone together',
          },
        ],
        null,
        'argument',
      );
    }
    const input = checked(UpdateAutomationInput, { id, ...fieldsOf(opts, localZoneOf(deps.io.env)) });
    await change(cmd, 'changing the automation', (core) => editingFor(core).update(input));
  });

  for (const [verb, words] of [
    ['pause', 'stop starting runs until resumed'],
    ['resume', 'start runs again on its schedule'],
  ] as const) {
    automations
      .command(verb)
      .argument('<id>', 'the automation (see `postdesk automations list`)')
      .description(words)
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        const { id: checkedId } = checked(UpdateAutomationInput.pick({ id: true }), { id });
        await change(cmd, `${verb === 'pause' ? 'pausing' : 'resuming'} the automation`, (core) =>
          editingFor(core)[verb](checkedId),
        );
      });
  }
}
