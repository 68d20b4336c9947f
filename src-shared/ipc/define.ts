import type { z } from 'zod';

/** A request the renderer makes and main answers once. */
export interface InvokeDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly kind: 'invoke';
  readonly input: I;
  readonly output: O;
}

/** A message main pushes to the renderer; the bridge exposes it as `on<Verb>(cb) → unsubscribe`. */
export interface EventDef<P extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly payload: P;
}

export type ChannelDef = InvokeDef | EventDef;
export type DomainDef = Readonly<Record<string, ChannelDef>>;

export const invoke = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): InvokeDef<I, O> => ({
  kind: 'invoke',
  input,
  output,
});

export const event = <P extends z.ZodType>(payload: P): EventDef<P> => ({ kind: 'event', payload });
