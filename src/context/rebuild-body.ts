import { composeRequest } from "./compose-request.ts";
import type { WireLedger } from "./wire-ledger.ts";
import type { RecordedCall } from "../store/call-log.ts";
import type { RequestParams } from "../wire/build-request.ts";

/**
 * The body a recorded call sent, rebuilt through the same composer the loop transmits through. One
 * ledger for a session's calls in order measures each message once, as the running session did.
 */
export const rebuildBody = (call: RecordedCall, ledger?: WireLedger): object =>
  composeRequest(call.messages, {
    model: call.model,
    instructions: call.instructions,
    tools: call.tools as never,
    params: call.params as RequestParams,
    limits: call.limits ?? { threshold: Number.MAX_SAFE_INTEGER, window: Number.MAX_SAFE_INTEGER },
    harder: call.harder,
    trailer: call.trailer,
  }, ledger).body;
