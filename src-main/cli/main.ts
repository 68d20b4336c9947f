import { isBrokenPipe, runCli } from './program';

// A reader that closed early (`postdesk analytics | head -1`) ends the command quietly with exit 0, as git and ls do:
// nothing printed after that can reach anyone, and Node would otherwise crash on the unhandled 'error' event.
process.stdout.on('error', (err) => {
  if (isBrokenPipe(err)) process.exit(0);
  throw err;
});
// Errors and notes whose reader left are dropped; the exit code still tells how the command ended.
process.stderr.on('error', (err) => {
  if (!isBrokenPipe(err)) throw err;
});

// The `postdesk` entry: bin/postdesk.js loads its build (out/cli), or these sources through tsx in a checkout.
const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
// Exit only once what we printed has been handed to the OS; pipes may still be draining.
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
