/** The text, and what its base64 runs (any alignment) and hex runs decode to: a value hidden in any of them shows. */
export function decodedEverywhere(text: string): string {
  const out = [text];
  // A run of base64 characters, across the whitespace a tool wraps it with; each of the four alignments decoded.
  for (const run of text.match(/[A-Za-z0-9+/=_-]+(?:\s+[A-Za-z0-9+/=_-]+)*/g) ?? []) {
    const joined = run.replace(/\s/g, "");
    for (let skip = 0; skip < 4; skip++) out.push(Buffer.from(joined.slice(skip).replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1"));
  }
  for (const run of text.match(/[0-9a-fA-F]{2}(?:\s{0,4}[0-9a-fA-F]{2})+/g) ?? []) {
    const joined = run.replace(/\s/g, "");
    for (let skip = 0; skip < 2; skip++) out.push(Buffer.from(joined.slice(skip), "hex").toString("latin1"));
  }
  out.push(text.replace(/%[0-9a-fA-F]{2}|\+/g, (e) => (e === "+" ? " " : String.fromCharCode(parseInt(e.slice(1), 16)))));
  return out.join("\n");
}
