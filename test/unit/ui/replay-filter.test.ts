import { describe, expect, test } from "bun:test";
import { createReplayFilter } from "../../../src/ui/replay-filter.ts";

describe("a retried stream is not shown twice", () => {
  test("a retry that repeats what was shown prints only what is new, across deltas and kinds", () => {
    const f = createReplayFilter();
    expect(f.delta("reasoning", "Think")).toEqual({ show: "Think" });
    expect(f.delta("text", "The quick")).toEqual({ show: "The quick" });
    expect(f.retry()).toBe(true);
    expect(f.delta("reasoning", "Thi")).toEqual({ show: "" });
    expect(f.delta("reasoning", "nk")).toEqual({ show: "" });
    expect(f.delta("text", "The qu")).toEqual({ show: "" });
    expect(f.delta("text", "ick brown")).toEqual({ show: " brown" });
    expect(f.delta("text", " fox")).toEqual({ show: " fox" });
    expect(f.finish()).toBeUndefined();
  });

  test("a retry that departs hands back its whole stream once, then streams on normally", () => {
    const f = createReplayFilter();
    f.delta("text", "Hello world");
    f.retry();
    expect(f.delta("text", "Hello")).toEqual({ show: "" });
    expect(f.delta("text", " there")).toEqual({ restart: [{ kind: "text", text: "Hello there" }] });
    expect(f.delta("text", "!")).toEqual({ show: "!" });
    expect(f.finish()).toBeUndefined();
  });

  test("switching kind where the shown stream did not is a departure", () => {
    const f = createReplayFilter();
    f.delta("reasoning", "plan");
    f.retry();
    expect(f.delta("text", "p")).toEqual({ restart: [{ kind: "text", text: "p" }] });
  });

  test("a retried answer that ends short of what was shown is shown afresh at the end", () => {
    const f = createReplayFilter();
    f.delta("text", "Hello world");
    f.retry();
    expect(f.delta("text", "Hello")).toEqual({ show: "" });
    expect(f.finish()).toEqual({ restart: [{ kind: "text", text: "Hello" }] });
  });

  test("a retry before anything was shown needs nothing; a new step starts clean", () => {
    const f = createReplayFilter();
    expect(f.retry()).toBe(false);
    f.delta("text", "abc");
    expect(f.finish()).toBeUndefined();
    expect(f.retry()).toBe(false);
    expect(f.delta("text", "abc")).toEqual({ show: "abc" });
  });
});
