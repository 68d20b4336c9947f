export declare const H2_CONSTANTS: Readonly<Record<string, string | number>>;
export declare function isUndiciH2(id: string): boolean;
export declare function deferHttp2(code: string): string;
