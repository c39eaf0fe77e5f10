import { describe, expect, test } from "bun:test";
import { decodeAnsiC, parseShell } from "../../../src/guard/shell-words.ts";

const home = "/home/neko";
const words = (src: string) => parseShell(src, { home }).map((p) => p.map((c) => c.words));

describe("parseShell", () => {
  const table: [string, string[][][]][] = [
    ["echo hi there", [[["echo", "hi", "there"]]]],
    ["a && b || c; d & e", [[["a"]], [["b"]], [["c"]], [["d"]], [["e"]]]],
    ["a | b |& c", [[["a"], ["b"], ["c"]]]],
    ["a\nb", [[["a"]], [["b"]]]],
    ["echo 'a  b' \"c d\" e\\ f", [[["echo", "a  b", "c d", "e f"]]]],
    ['echo "x \\"y\\" \\$z"', [[["echo", 'x "y" $z']]]],
    ["echo a'b'\"c\"d", [[["echo", "abcd"]]]],
    ["echo ~ ~/x '~/y' a~", [[["echo", home, `${home}/x`, "~/y", "a~"]]]],
    ["echo $HOME ${HOME}/k \"$HOME\" '$HOME' $OTHER", [[["echo", home, `${home}/k`, home, "$HOME", "$OTHER"]]]],
    ["X=1 Y=two; echo $X$Y ${Z:-dflt}", [[["X=1", "Y=two"]], [["echo", "1two", "dflt"]]]],
    ["echo {a,b}.txt '{c,d}' {e}", [[["echo", "a.txt", "b.txt", "{c,d}", "{e}"]]]],
    ["echo $'a\\tb' $'\\x41\\102'", [[["echo", "a\tb", "AB"]]]],
    ["echo x # comment > .env", [[["echo", "x"]]]],
    ["echo a#b", [[["echo", "a#b"]]]],
    ["dd of=~/disk", [[["dd", `of=${home}/disk`]]]],
    ["cat <<EOF\nrm -rf /\nEOF\necho after", [[["cat"]], [["echo", "after"]]]],
    ["echo line\\\ncontinued", [[["echo", "linecontinued"]]]],
  ];
  test.each(table)("%p", (src, expected) => {
    expect(words(src)).toEqual(expected);
  });

  test("redirections keep their descriptor and operator", () => {
    const cmd = parseShell("cmd >a 2>>b &>c >|d 2>&1 <in 3<>e >&f <<<here", { home })[0]![0]!;
    expect(cmd.redirects).toEqual([
      { op: ">", target: "a" },
      { op: ">>", fd: "2", target: "b" },
      { op: "&>", target: "c" },
      { op: ">|", target: "d" },
      { op: ">&", fd: "2", target: "1" },
      { op: "<", target: "in" },
      { op: "<>", fd: "3", target: "e" },
      { op: ">&", target: "f" },
      { op: "<<<", target: "here" },
    ]);
  });

  test("substitutions are kept with their code, nested quotes and parens included", () => {
    const cmd = parseShell('echo "$(cat "a b" | tr -d \')\')" `ls` <(curl x) >(tee y)', { home })[0]![0]!;
    expect(cmd.substitutions).toEqual([
      { kind: "$(", script: "cat \"a b\" | tr -d ')'" },
      { kind: "`", script: "ls" },
      { kind: "<(", script: "curl x" },
      { kind: ">(", script: "tee y" },
    ]);
  });

  test("unterminated quotes and substitutions do not throw", () => {
    expect(words("echo 'open")).toEqual([[["echo", "open"]]]);
    expect(parseShell("echo $(unclosed", { home })[0]![0]!.substitutions).toEqual([{ kind: "$(", script: "unclosed" }]);
  });

  test("decodeAnsiC decodes hex, octal, unicode and control escapes", () => {
    expect(decodeAnsiC("\\x2eenv\\n\\056\\u00e9\\cA\\q")).toBe(".env\n.é\x01\\q");
  });
});
