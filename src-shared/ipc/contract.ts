import type { z } from 'zod';
import type { ChannelDef, EventDef, InvokeDef } from './define';
import { app } from './app';
import { connection } from './connection';
import { accounts } from './accounts';
import { posts } from './posts';
import { postGroups } from './post-groups';
import { calendar } from './calendar';
import { media } from './media';
import { compose } from './compose';
import { files } from './files';
import { bulk } from './bulk';
import { articles } from './articles';
import { analytics } from './analytics';
import { skills } from './skills';
import { automations } from './automations';
import { runs } from './runs';
import { executor } from './executor';
import { settings } from './settings';
import { secrets } from './secrets';
import { updates } from './updates';
import { inbox } from './inbox';
import { schedule } from './schedule';
import { watch } from './watch';
import { exportChannels } from './exports';
import { commandLine } from './command-line';
import { queue } from './queue';
import { assistant } from './assistant';

/** The whole bridge: domain → verb → channel. A channel's name is `domain:verb`. */
export const CONTRACT = {
  app,
  connection,
  accounts,
  posts,
  postGroups,
  calendar,
  media,
  compose,
  files,
  bulk,
  articles,
  analytics,
  skills,
  automations,
  runs,
  executor,
  settings,
  secrets,
  updates,
  inbox,
  schedule,
  watch,
  exports: exportChannels,
  commandLine,
  queue,
  assistant,
} as const;

export type Contract = typeof CONTRACT;
export type DomainName = keyof Contract;

export type InvokeVerb<D extends DomainName> = {
  [V in keyof Contract[D]]: Contract[D][V] extends InvokeDef ? V : never;
}[keyof Contract[D]] &
  string;
export type EventVerb<D extends DomainName> = {
  [V in keyof Contract[D]]: Contract[D][V] extends EventDef ? V : never;
}[keyof Contract[D]] &
  string;

export type InvokeChannelName = { [D in DomainName]: `${D}:${InvokeVerb<D>}` }[DomainName];
export type EventChannelName = { [D in DomainName]: `${D}:${EventVerb<D>}` }[DomainName];
export type ChannelName = InvokeChannelName | EventChannelName;

type DefOf<N extends ChannelName> = N extends `${infer D extends DomainName}:${infer V}`
  ? V extends keyof Contract[D]
    ? Contract[D][V]
    : never
  : never;

/** What the caller passes (before defaults and coercion). */
export type InputOf<N extends InvokeChannelName> = DefOf<N> extends InvokeDef<infer I> ? z.input<I> : never;
/** What a handler receives (after parsing). */
export type ParsedInputOf<N extends InvokeChannelName> =
  DefOf<N> extends InvokeDef<infer I> ? z.output<I> : never;
/** What the caller gets back. */
export type OutputOf<N extends InvokeChannelName> =
  DefOf<N> extends InvokeDef<z.ZodType, infer O> ? z.output<O> : never;
/** What a handler may return (the output schema's input; parsing then strips undeclared fields). */
export type HandlerOutputOf<N extends InvokeChannelName> =
  DefOf<N> extends InvokeDef<z.ZodType, infer O> ? z.input<O> : never;
export type PayloadOf<N extends EventChannelName> = DefOf<N> extends EventDef<infer P> ? z.output<P> : never;

export const channelName = (domain: string, verb: string): string => `${domain}:${verb}`;

/** `didStepRun` → `onDidStepRun`: the bridge's name for subscribing to an event. */
export const listenerName = (verb: string): string => `on${verb.charAt(0).toUpperCase()}${verb.slice(1)}`;

export interface ChannelEntry {
  readonly name: string;
  readonly domain: DomainName;
  readonly verb: string;
  readonly def: ChannelDef;
}

/** Every channel, flat: what the gate, the preload, the web host and the tests iterate. */
export const CHANNELS: readonly ChannelEntry[] = Object.entries(CONTRACT).flatMap(([domain, verbs]) =>
  Object.entries(verbs as Readonly<Record<string, ChannelDef>>).map(([verb, def]) => ({
    name: channelName(domain, verb),
    domain: domain as DomainName,
    verb,
    def,
  })),
);

const BY_NAME = new Map(CHANNELS.map((c) => [c.name, c]));

/** The channel of this name, or undefined: names from the wire are untrusted strings. */
export function findChannel(name: string): ChannelEntry | undefined {
  return BY_NAME.get(name);
}
