// Controls but tab, newline and carriage return: ESC and the C1 ones (U+009B is a CSI to some terminals) too.
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/**
 * A command's or an MCP server's output as the model reads it: text, with every control character
 * spelled out (`\x1b[2J`), as an approval shows them to a person. What a model takes in should be
 * what it can see; a sequence it cannot see it can neither judge nor be steered by unawares.
 */
export const spelledControls = (text: string): string => text.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
