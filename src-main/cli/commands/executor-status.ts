import type { Command } from 'commander';
import { daemonStateFile, readDaemonState, type DaemonReading } from '../../core/executor/daemon-state';
import { executorDataDir } from '../../core/paths';
import type { CliDeps } from '../context';
import { EXIT } from '../exit-codes';

/** What `executor status --json` prints: `running` is false for no daemon and for a stale file alike. */
function statusJson(file: string, r: DaemonReading): Record<string, unknown> {
  switch (r.kind) {
    case 'none':
      return { running: false, stale: false, state_file: file };
    case 'unreadable':
      return { running: false, stale: false, state_file: file, problem: r.problem };
    case 'stale':
    case 'live':
      return { running: r.kind === 'live', stale: r.kind === 'stale', state_file: file, ...r.state };
  }
}

/**
 * `postdesk executor status`: what the `postdesk executor` daemon of this data directory is doing, from the
 * state file it keeps (see core/executor/daemon-state.ts). Never talks to the service: it answers at once,
 * and the same whether the service is reachable or not. Exit 0 with a daemon running, 1 without.
 */
export function registerExecutorStatusCommand(executor: Command, deps: CliDeps): void {
  executor
    .command('status')
    .description(
      'what the executor daemon of this data directory is doing: registering, idle, running; last sync; next occurrence',
    )
    .action((_flags: unknown, self: Command) => {
      const out = deps.output(self);
      const file = daemonStateFile(executorDataDir(deps.dataDir));
      const r = readDaemonState(file);
      if (r.kind !== 'live') deps.setExitCode(EXIT.other);
      out.result(statusJson(file, r), () => {
        if (r.kind === 'none') return out.note('no executor daemon is running for this data directory');
        if (r.kind === 'unreadable') return out.note(`the daemon's state file is unreadable: ${r.problem}`);
        const s = r.state;
        out.fields([
          [
            'daemon',
            r.kind === 'live'
              ? `running (pid ${s.pid})`
              : `not running: process ${s.pid} ended without stopping cleanly (killed or crashed)`,
          ],
          [r.kind === 'live' ? 'state' : 'last state', s.state],
          ['name', s.name],
          ['executor id', s.executor_id ?? '-'],
          ['last sync', s.last_sync_at ?? 'never'],
          ['next occurrence', r.kind === 'live' ? (s.next_occurrence_at ?? 'none scheduled') : '-'],
          ['active runs', s.active_runs],
          ['last error', s.last_error ?? '-'],
          ['updated', s.updated_at],
        ]);
      });
    });
}
