import { createRedactor, type NamedValue, type Redactor } from "./redact.ts";

/**
 * A redactor of values that change during a session (secret files edited, HEAD moved): `refresh` asks
 * `known` again and builds a new redactor only when the values differ. run-tool-call refreshes it around every call.
 */
export function createLiveRedactor(known: () => readonly NamedValue[]): Redactor {
  let seen = "";
  let current = createRedactor([]);
  const refresh = () => {
    const values = known();
    const key = values.map((v) => `${v.name}\0${v.value}`).sort().join("\n");
    if (key === seen) return;
    seen = key;
    current = createRedactor(values);
  };
  refresh();
  return { text: (s) => current.text(s), find: (s) => current.find(s), stream: () => current.stream(), refresh };
}
