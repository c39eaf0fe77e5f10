/**
 * What a command prints when it wanted the network and got none (curl, git, npm, pip, node, Python,
 * ssh…), for a one-line hint in its result: without one, a model reads "Could not resolve host" as a
 * flaky network and retries, or works around it, instead of saying a person must allow it.
 */
const SIGNS = [
  /Could not resolve host/i,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /No address associated with hostname/i,
  /getaddrinfo/i,
  /\bENOTFOUND\b/,
  /\bEAI_AGAIN\b/,
  /\bENETUNREACH\b/,
  /\bECONNREFUSED\b/,
  /Network is unreachable/i,
  /Failed to connect/i,
  /Connection refused/i,
  /Could not connect to/i,
];

/** Whether output reads like a failure for want of network. Pure. */
export const looksOffline = (output: string): boolean => SIGNS.some((sign) => sign.test(output));

export const OFFLINE_NOTE =
  "It ran without network, which only a person can give: --network for the run, an allow rule naming the command (such as --allow 'bash:npm ci*'), or approving it in the REPL.";
