import type { z } from 'zod';
import type { Contract, DomainName, InvokeVerb } from '../../../src-shared/ipc/contract';
import type { InvokeDef } from '../../../src-shared/ipc/define';

// Its own file so that handlers.ts and the handler files it assembles (compose-port, post-groups, inbox, schedule,
// queue) can all name the shape without importing one another in a circle.

type HandlerFor<D> =
  D extends InvokeDef<infer I, infer O> ? (input: z.output<I>) => Promise<z.input<O>> : never;

/** A handler for every invoke channel: a missing one is a compile error. */
export type Handlers = {
  readonly [D in DomainName]: { readonly [V in InvokeVerb<D>]: HandlerFor<Contract[D][V]> };
};
