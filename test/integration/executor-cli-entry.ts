/** `postdesk` for the executor's tests, run as a child process through tsx: the real CLI from its sources. */
await import('../../src-main/cli/main');
export {};
