/**
 * The abort reason of a run stopped by its wall-time limit: the loop ends it as `timeout` rather
 * than `aborted`, and a command killed for it says so in its result.
 */
export const RUN_TIMEOUT = "timeout";
