import type { z } from 'zod';
import type { EventDef, InvokeDef } from './define';
import type { BridgeResult } from './bridge-error';
import type { Contract, DomainName } from './contract';
import type { MediaAddResult } from './media';

export type Unsubscribe = () => void;

type InvokeFn<D> =
  D extends InvokeDef<infer I, infer O>
    ? undefined extends z.input<I>
      ? (input?: z.input<I>) => Promise<BridgeResult<Readonly<z.output<O>>>>
      : (input: z.input<I>) => Promise<BridgeResult<Readonly<z.output<O>>>>
    : never;

type ListenFn<D> =
  D extends EventDef<infer P> ? (listener: (payload: Readonly<z.output<P>>) => void) => Unsubscribe : never;

/** `window.postdesk.<domain>`: one function per invoke channel, `on<Event>(cb)` per event channel. */
export type DomainBridge<Dm> = {
  readonly [V in keyof Dm as Dm[V] extends InvokeDef ? V : never]: InvokeFn<Dm[V]>;
} & {
  readonly [V in keyof Dm as Dm[V] extends EventDef ? `on${Capitalize<V & string>}` : never]: ListenFn<Dm[V]>;
};

export type ContractBridge = { readonly [D in DomainName]: DomainBridge<Contract[D]> };

/**
 * A file the user dropped, typed loosely so this file needs no DOM types: a DOM `File` fits.
 * In Electron its path is read in the preload; in a browser its bytes are sent to the web host.
 */
export interface DroppedFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What each host adds beside the contract, because only the host can turn a dropped file into a registered one. */
export interface BridgeExtras {
  readonly media: {
    /** Registers dropped files (and, in Electron, folders) exactly as `media.add` does with paths. */
    addDropped(files: readonly DroppedFile[]): Promise<BridgeResult<MediaAddResult>>;
  };
}

/** `window.postdesk`, the same in Electron (preload) and in the browser (`createWsBridge`). */
export type PostdeskBridge = {
  readonly [D in DomainName]: D extends keyof BridgeExtras
    ? DomainBridge<Contract[D]> & BridgeExtras[D]
    : DomainBridge<Contract[D]>;
} & {
  /** Which host serves this page; for diagnostics only, screens must not branch on it. */
  readonly host: 'electron' | 'web';
};
