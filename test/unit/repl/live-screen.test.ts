import { describe, expect, test } from "bun:test";
import { createLiveScreen, type Area } from "../../../src/repl/live-screen.ts";
import { LineScreen } from "../../support/line-screen.ts";

// The live area against the test terminal: whatever is drawn, erased and drawn again, the screen
// must read as if only the last frame had ever been drawn below the transcript.
function setup(cols: number, rows = 24) {
  const screen = new LineScreen(cols, rows);
  const size = { cols, rows };
  const live = createLiveScreen({ write: (t) => screen.feed(t), columns: () => size.cols, rows: () => size.rows });
  const resize = (c: number) => {
    size.cols = c;
    screen.resize(c, rows);
    live.resized();
  };
  return { screen, live, resize };
}
const input = (text: string, cursor = text.length): Area => ({ rows: [`› ${text}`], cursor: { row: 0, before: `› ${text.slice(0, cursor)}` } });

describe("the live area", () => {
  test("a wrapped input line edited at its start leaves no stale rows", () => {
    const { screen, live } = setup(20);
    live.output("header\n");
    const long = "0123456789".repeat(5);
    live.draw(input(long));
    live.draw(input(long, 0));
    live.draw(input("X" + long, 1));
    expect(screen.text()).toBe(`header\n› X${long}`);
    expect(screen.currentLine()).toBe(`› X${long}`);
  });

  test("streamed text without a newline is drawn above the input, then joins the transcript whole", () => {
    const { screen, live } = setup(40);
    live.draw(input("draft"));
    live.output("Alpha beta");
    expect(screen.text()).toBe("Alpha beta\n› draft");
    live.output(" gamma\nDelta");
    live.draw({ rows: ["› draft", "status"], cursor: { row: 0, before: "› draft" } });
    expect(screen.text()).toBe("Alpha beta gamma\nDelta\n› draft\nstatus");
    live.close();
    expect(screen.text()).toBe("Alpha beta gamma\nDelta\n");
  });

  test("a row that exactly fills the width, and wide characters that do not fit at a row's end", () => {
    const { screen, live } = setup(10);
    live.draw(input("12345678"));
    live.draw(input("漢字漢字漢"));
    live.draw(input("ab"));
    expect(screen.text()).toBe("› ab");
  });

  test("after the terminal narrows (and reflows), the redraw replaces the area", () => {
    const { screen, live, resize } = setup(40);
    live.output("before\n");
    live.draw(input("0123456789".repeat(3)));
    resize(12);
    live.draw(input("short"));
    expect(screen.text()).toBe("before\n› short");
  });
});
