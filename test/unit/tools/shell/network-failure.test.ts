import { expect, test } from "bun:test";
import { looksOffline } from "../../../../src/tools/shell/network-failure.ts";

test("the usual failures for want of network are recognised", () => {
  const offline = [
    "curl: (6) Could not resolve host: example.com",
    "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server",
    "fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com",
    "ssh: Could not resolve hostname github.com: Temporary failure in name resolution",
    "ping: example.com: Name or service not known",
    "npm ERR! code ENOTFOUND\nnpm ERR! errno ENOTFOUND\nnpm ERR! network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org",
    "npm error code EAI_AGAIN",
    "npm ERR! code ENETUNREACH",
    "connect: Network is unreachable",
    "dial tcp 10.0.0.1:443: connect: network is unreachable",
    "Error: connect ECONNREFUSED 127.0.0.1:5432",
    "psql: error: connection to server at \"db\" failed: Connection refused",
    "socket.gaierror: [Errno -5] No address associated with hostname",
  ];
  expect(offline.filter((text) => !looksOffline(text))).toEqual([]);
});

test("other failures are not", () => {
  const other = ["FAIL src/a.test.ts\nexpected 1, got 2", "bash: foo: command not found", "Permission denied", "error TS2322: Type 'string' is not assignable", "Exit code: 1"];
  expect(other.filter(looksOffline)).toEqual([]);
});
