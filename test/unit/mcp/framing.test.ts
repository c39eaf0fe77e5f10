import { describe, expect, test } from "bun:test";
import { readMessages } from "../../../src/mcp/json-rpc.ts";
import { readLines } from "../../../src/mcp/read-lines.ts";
import { readSse } from "../../../src/mcp/sse-reader.ts";
import { StderrTail } from "../../../src/mcp/stderr-tail.ts";

const streamOf = (chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });

describe("MCP framing", () => {
  test("SSE: fields, comments, multi-line data, CRLF split across chunks, a priming event, an unfinished tail dropped", async () => {
    const events = [];
    for await (const event of readSse(streamOf(["id: e1\r", "\nretry: 500\r\ndata:\r\n\r\n: keep-alive\nevent: message\ndata: {\"a\"", ":1}\ndata:x\n\n", "id: 3\ndata: cut"]))) events.push(event);
    expect(events).toEqual([
      { id: "e1", retry: 500, data: "" },
      { event: "message", data: '{"a":1}\nx' },
    ]);
  });

  test("lines: CRLF and LF, a multi-byte character split across chunks, an unterminated last line, a line over the cap cut", async () => {
    const lines: [string, boolean][] = [];
    const euro = new TextEncoder().encode("€");
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("one\r\ntw"));
        c.enqueue(new Uint8Array([...new TextEncoder().encode("o "), euro[0]!]));
        c.enqueue(new Uint8Array([euro[1]!, euro[2]!, 10, ...new TextEncoder().encode("last")]));
        c.close();
      },
    });
    await readLines(stream, (line, tooLong) => lines.push([line, tooLong]), 100);
    expect(lines).toEqual([["one", false], ["two €", false], ["last", false]]);
    const long: [string, boolean][] = [];
    await readLines(streamOf(["abcdefgh", "ijkl"]), (line, tooLong) => long.push([line, tooLong]), 5);
    expect(long).toEqual([["abcde", true]]);
  });

  test("JSON-RPC: requests, notifications, results, errors and batches are read; anything else says what it was", () => {
    const read = readMessages('[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"nope","data":{"x":1}}},{"jsonrpc":"2.0","method":"ping","id":7},{"jsonrpc":"2.0","method":"notifications/x","extra":true}]');
    expect(read.ok && read.messages.length).toBe(4);
    expect(readMessages('{"jsonrpc":"2.0","id":1}')).toEqual({ ok: false, why: 'not a JSON-RPC 2.0 message: {"jsonrpc":"2.0","id":1}' });
    expect(readMessages("Listening on 3000")).toEqual({ ok: false, why: "not JSON: Listening on 3000" });
    expect(readMessages('{"jsonrpc":"1.0","method":"x"}').ok).toBe(false);
  });

  test("stderr tail: the last lines within the cap, a cut first line marked", () => {
    const tail = new StderrTail(20, 2);
    tail.push("first\nsecond\n");
    tail.push("third\nfour");
    expect(tail.toString()).toBe("third\nfour");
    const short = new StderrTail(8, 5);
    short.push("0123456789\nab");
    expect(short.toString()).toBe("…56789\nab");
  });
});
