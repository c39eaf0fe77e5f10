import { ensureBinary } from "./binary.ts";

// End-to-end tests spawn the compiled binary; make sure it matches the sources before any test runs.
ensureBinary();
