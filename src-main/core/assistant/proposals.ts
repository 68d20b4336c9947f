import { randomBytes } from 'node:crypto';
import type { ActivityEntry, ActivityOutcome, Proposal, ProposalState } from '../../../src-shared/assistant';
import type { Store } from '../store/store';

export const ASSISTANT_NAMESPACE = 'assistant';

const MIGRATIONS = [
  {
    version: 1,
    up: `CREATE TABLE assistant_proposals (
           id TEXT PRIMARY KEY,
           tool TEXT NOT NULL,
           arguments TEXT NOT NULL,
           content_hash TEXT NOT NULL,
           state TEXT NOT NULL,
           created_at TEXT NOT NULL,
           decided_at TEXT,
           sent_at TEXT,
           result TEXT
         );
         CREATE INDEX assistant_proposals_hash ON assistant_proposals (content_hash, state);
         CREATE TABLE assistant_activity (
           id INTEGER PRIMARY KEY AUTOINCREMENT,
           at TEXT NOT NULL,
           tool TEXT NOT NULL,
           outcome TEXT NOT NULL,
           proposal_id TEXT,
           detail TEXT NOT NULL
         );`,
  },
  {
    version: 2,
    up: `CREATE TABLE assistant_tools (name TEXT PRIMARY KEY, seen_at TEXT NOT NULL);`,
  },
];

/** Proposal ids: short enough to type in `postdesk inbox approve`, and told apart from post ids by the prefix. */
export const PROPOSAL_ID_PREFIX = 'prop_';
export const isProposalId = (id: string): boolean => id.startsWith(PROPOSAL_ID_PREFIX);

/** Activity kept: the newest entries; older ones go as new ones come. */
const ACTIVITY_KEPT = 5000;
const RESULT_MAX = 20_000;

interface ProposalRow {
  id: string;
  tool: string;
  arguments: string;
  content_hash: string;
  state: ProposalState;
  created_at: string;
  decided_at: string | null;
  sent_at: string | null;
  result: string | null;
}

const toProposal = (r: ProposalRow): Proposal => ({
  ...r,
  arguments: JSON.parse(r.arguments) as Record<string, unknown>,
});

export class ProposalNotFoundError extends Error {
  constructor(id: string) {
    super(`no proposal ${id}: \`postdesk inbox list\` shows the ones waiting`);
    this.name = 'ProposalNotFoundError';
  }
}

export class ProposalDecidedError extends Error {
  constructor(state: ProposalState) {
    super(
      `this proposal was already ${state === 'pending' ? 'made' : state}: only a waiting one can be decided`,
    );
    this.name = 'ProposalDecidedError';
  }
}

/**
 * The assistant's proposals and activity in the local store, shared by `postdesk mcp` (which writes them),
 * the app and `postdesk inbox` (where a person decides). Every change is one SQL statement whose WHERE names
 * the state it leaves, so two processes never both move a proposal on: the claim to send an approved
 * proposal succeeds once.
 */
export class AssistantLedger {
  private readonly db: Store['db'];

  constructor(
    store: Pick<Store, 'db' | 'migrate'>,
    private readonly now: () => Date = () => new Date(),
  ) {
    store.migrate(ASSISTANT_NAMESPACE, MIGRATIONS);
    this.db = store.db;
  }

  private iso(): string {
    return this.now().toISOString();
  }

  propose(tool: string, args: Readonly<Record<string, unknown>>, hash: string): Proposal {
    const id = `${PROPOSAL_ID_PREFIX}${randomBytes(6).toString('hex')}`;
    this.db
      .prepare(
        `INSERT INTO assistant_proposals (id, tool, arguments, content_hash, state, created_at)
         VALUES (?, ?, ?, ?, 'pending', ?)`,
      )
      .run(id, tool, JSON.stringify(args), hash, this.iso());
    return this.get(id)!;
  }

  get(id: string): Proposal | null {
    const row = this.db.prepare('SELECT * FROM assistant_proposals WHERE id = ?').get(id) as
      ProposalRow | undefined;
    return row ? toProposal(row) : null;
  }

  /** The newest proposal for this exact content, whatever its state. */
  latestFor(hash: string): Proposal | null {
    const row = this.db
      .prepare(
        'SELECT * FROM assistant_proposals WHERE content_hash = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
      )
      .get(hash) as ProposalRow | undefined;
    return row ? toProposal(row) : null;
  }

  list(states?: readonly ProposalState[]): Proposal[] {
    const rows = this.db
      .prepare('SELECT * FROM assistant_proposals ORDER BY created_at DESC, rowid DESC LIMIT 500')
      .all() as ProposalRow[];
    return rows.filter((r) => !states || states.includes(r.state)).map(toProposal);
  }

  /** A person's decision on a waiting proposal. */
  decide(id: string, decision: 'approved' | 'rejected'): Proposal {
    const changed = this.db
      .prepare(`UPDATE assistant_proposals SET state = ?, decided_at = ? WHERE id = ? AND state = 'pending'`)
      .run(decision, this.iso(), id).changes;
    const proposal = this.get(id);
    if (!proposal) throw new ProposalNotFoundError(id);
    if (changed === 0) throw new ProposalDecidedError(proposal.state);
    return proposal;
  }

  /** Claims an approved proposal for sending: true for exactly one caller. */
  claim(id: string): boolean {
    return (
      this.db
        .prepare(`UPDATE assistant_proposals SET state = 'sending' WHERE id = ? AND state = 'approved'`)
        .run(id).changes === 1
    );
  }

  finish(id: string, ok: boolean, result: string): void {
    this.db
      .prepare(
        `UPDATE assistant_proposals SET state = ?, sent_at = ?, result = ? WHERE id = ? AND state = 'sending'`,
      )
      .run(ok ? 'sent' : 'failed', this.iso(), result.slice(0, RESULT_MAX), id);
  }

  note(tool: string, outcome: ActivityOutcome, detail: string, proposalId: string | null = null): void {
    this.db
      .prepare(
        'INSERT INTO assistant_activity (at, tool, outcome, proposal_id, detail) VALUES (?, ?, ?, ?, ?)',
      )
      .run(this.iso(), tool, outcome, proposalId, detail.slice(0, 500));
    this.db
      .prepare('DELETE FROM assistant_activity WHERE id <= (SELECT MAX(id) FROM assistant_activity) - ?')
      .run(ACTIVITY_KEPT);
  }

  /** The tools the service offered when `postdesk mcp` last started (what policies are listed for). */
  saveTools(names: readonly string[]): void {
    const at = this.iso();
    const insert = this.db.prepare('INSERT INTO assistant_tools (name, seen_at) VALUES (?, ?)');
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM assistant_tools').run();
      for (const name of names) insert.run(name, at);
    })();
  }

  tools(): string[] {
    return (
      this.db.prepare('SELECT name FROM assistant_tools ORDER BY name').all() as { name: string }[]
    ).map((r) => r.name);
  }

  activity(limit = 200): ActivityEntry[] {
    return this.db
      .prepare(
        'SELECT id, at, tool, outcome, proposal_id, detail FROM assistant_activity ORDER BY id DESC LIMIT ?',
      )
      .all(limit) as ActivityEntry[];
  }
}
