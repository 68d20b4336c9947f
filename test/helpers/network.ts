import { networkInterfaces } from 'node:os';

/**
 * An IPv4 address of this machine that is not loopback, or undefined on a machine with none (a bare container):
 * the tests that prove a server refuses the outside skip visibly there, with `it.skipIf(!outsideAddress)`.
 */
export const outsideAddress: string | undefined = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
