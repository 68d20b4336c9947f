import pkg from '../../package.json' with { type: 'json' };

/** The version `postdesk --version` prints and the web host reports (package.json's, inlined by the build). */
export const VERSION: string = pkg.version;
