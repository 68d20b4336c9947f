/**
 * The one door for files: every module outside this folder opens, reads, writes and creates files through it
 * (eslint.config.js forbids `fs` elsewhere). no-follow.ts for folders others write, private.ts for what
 * Postdesk writes, named.ts for paths a person named, within.ts for "is this inside that folder".
 */
export * from './within';
export * from './no-follow';
export * from './private';
export * from './named';
