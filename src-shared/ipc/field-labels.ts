import type { BridgeIssue } from './bridge-error';

/**
 * What a person calls each field a validation message can name. Issues keep their path (a form marks the
 * field with it); the words shown name the field this way instead, never as `add_targets.0.social_account_id`.
 * Keyed by the path's first part: the part a person filled in.
 */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  caption: 'The caption',
  title: 'The title',
  media: 'The media',
  targets: 'The accounts',
  add_targets: 'The accounts to add',
  social_account_id: 'The account',
  platform: 'The platform',
  scheduled_at: 'The date and time',
  status: 'The status',
  action: 'What to do with the post',
  id: 'The post',
  post_id: 'The post',
  body_markdown: 'The text',
  canonical_url: 'The canonical URL',
  tags: 'The tags',
  destinations: 'The destinations',
  start: 'The start date',
  end: 'The end date',
  start_date: 'The start date',
  end_date: 'The end date',
  account_id: 'The account',
  base_url: 'The base URL',
  alias_url: 'The alias URL',
  proxy_url: 'The proxy',
  executor_name: 'The executor name',
  concurrency: 'The number of concurrent runs',
  missed_run_policy: 'What to do with missed runs',
  agent_commands: 'The agent commands',
  automation_folders: 'The automation folders',
  automation_agents: 'The automation agents',
  ffmpeg_path: 'The ffmpeg program',
  ffprobe_path: 'The ffprobe program',
  update_channel: 'The update channel',
  start_at_login: 'Start at login',
  api_key: 'The API key',
  grants: 'The chosen files',
  source: 'The file',
  limit: 'How many to list',
  offset: 'Where the list starts',
  version: 'The version',
  url: 'The address',
};

/** The words for the field an issue names: a known field's name, else "This" (never the raw path). */
export function fieldLabel(path: string): string {
  const first = path.split('.').find((part) => !/^\d+$/.test(part)) ?? '';
  return FIELD_LABELS[first] ?? (first ? 'A value' : 'This');
}

/** Which item of a list an issue is about ("the 2nd"), when its path says so. */
function ordinal(path: string): string {
  const n = /\.(\d+)(\.|$)/.exec(path)?.[1];
  if (n === undefined) return '';
  const i = Number(n) + 1;
  const suffix =
    i % 10 === 1 && i !== 11
      ? 'st'
      : i % 10 === 2 && i !== 12
        ? 'nd'
        : i % 10 === 3 && i !== 13
          ? 'rd'
          : 'th';
  return ` (the ${i}${suffix})`;
}

/** One issue as a sentence: "The accounts to add (the 1st): must be a valid id." */
export function issueSentence(issue: Readonly<BridgeIssue>): string {
  const message = issue.message.replace(/\.$/, '');
  return issue.path
    ? `${fieldLabel(issue.path)}${ordinal(issue.path)}: ${message}.`
    : `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}

/**
 * A field path at the start of a clause (`targets.0.platform:`, `add_targets:`, `caption:`), as the service's
 * words may carry one. A file name (`clip.mp4:`) is not one: a path has an index, an underscore, or is a field.
 */
const PATH_AT_CLAUSE = new RegExp(
  `(^|[;,.]\\s+|\\()([a-z][a-z_]*(?:\\.\\d+)+(?:\\.[a-z_]+)*|[a-z]+_[a-z_]*(?:\\.[a-z_]+)*|(?:${Object.keys(FIELD_LABELS).join('|')})(?:\\.[a-z_]+)*): `,
  'g',
);

/** A text (the service's words) with each field path it names at a clause's start said as a person would. */
export function namingFields(text: string): string {
  return text.replace(
    PATH_AT_CLAUSE,
    (_m, lead: string, path: string) => `${lead}${fieldLabel(path)}${ordinal(path)}: `,
  );
}

/** Issues as one text, each field named for a person. */
export function issuesText(issues: readonly Readonly<BridgeIssue>[]): string {
  return issues.map(issueSentence).join(' ');
}
