/**
 * An answer already serialized, sent as is with `content-type: application/json` (operation-route.ts).
 * `T` is the answer the text stands for, so a handler still answers its operation's response type.
 */
export class JsonText<T> {
  declare private readonly answer: T;
  constructor(readonly text: string) {}
}
