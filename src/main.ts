import { VERSION } from "./version.ts";
// Placeholder entry until the CLI lands; keeps the build and smoke test meaningful.
if (process.argv.includes("--version") || process.argv.includes("-v")) console.log(`shiro ${VERSION}`);
