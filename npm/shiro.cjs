#!/usr/bin/env node
// The `shiro` command of the npm package shiro-neko: it runs the compiled binary that npm installed
// beside it as the optional dependency for this platform (@shiro-neko/<os>-<cpu>, whose `os` and `cpu`
// fields make npm install only the matching one). Plain Node.js, no dependency: npm users have node,
// not necessarily Bun. npm/pack.ts copies it into the package as bin/shiro.js.
"use strict";
const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const { dirname, join } = require("node:path");

// Kept in step with npm/pack.ts, which builds one package for each.
const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const platform = `${process.platform}-${process.arch}`;

function fail(message) {
  process.stderr.write(`shiro: ${message}\n`);
  process.exit(1);
}

if (!PLATFORMS.includes(platform)) {
  fail(`no shiro binary for ${platform}: the npm package has one for ${PLATFORMS.join(", ")}`);
}
const pkg = `@shiro-neko/${platform}`;
let binary;
try {
  binary = join(dirname(require.resolve(`${pkg}/package.json`)), "bin", process.platform === "win32" ? "shiro.exe" : "shiro");
} catch {
  fail(`${pkg}, the package holding the binary for this platform, is not installed (left out as optional, or node_modules copied from another platform?): npm install -g shiro-neko`);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
// Ctrl-C reaches the binary from the terminal itself (one process group); this process only waits for
// it to finish saving. A signal sent to this process alone (a CI runner's SIGTERM) is passed on.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (signal !== "SIGINT") child.kill(signal);
  });
}
child.on("error", (error) => fail(`could not run ${binary}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // End the same way, so a caller sees what stopped it (a shell says 128+n).
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    // One node ignores (SIGPIPE) still ends this process, with the code a shell would give it.
    setImmediate(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  } else process.exit(code ?? 1);
});
