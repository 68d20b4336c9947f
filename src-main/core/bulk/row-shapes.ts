import type { Target } from '../../../src-shared/api/common';
import type { Action, MediaSpec } from './fields';

// The shapes of a checked row and of a row's problem, apart from validate.ts so that the checks it loads
// (row-rules.ts) can name them without an import circle.

export interface RowProblem {
  /** The 1-based data row, or null for a problem with the file itself (a header, say). */
  readonly row: number | null;
  readonly line: number | null;
  readonly field: string | null;
  /** Written for a person, the same in every face. */
  readonly message: string;
  /** The command line's own addition (the command that fixes it); the app leaves it out. */
  readonly cliHint?: string;
}

/** A row that passed every check, in the shape batches are built from. */
export interface PostRow {
  readonly row: number;
  readonly line: number | null;
  readonly caption: string;
  readonly title?: string | undefined;
  readonly media: readonly MediaSpec[];
  readonly targets: readonly Target[];
  readonly action: Action;
  /** UTC ISO instant. */
  readonly scheduledAt?: string | undefined;
  /** The item key when it is not `row-N`: a queue import that split the row into one post per instant. */
  readonly itemKey?: string | undefined;
}
