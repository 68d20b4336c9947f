export declare const EAGER_CHUNKS: RegExp;
export declare const COMPILE_HINT: string;
export declare function compileHint(chunk: { readonly name: string }): string;
