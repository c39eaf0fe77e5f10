/**
 * A path a command writes, as written (relative to the command's cwd), and how (`>`, `tee`, `cp`…).
 * `operand`: writing it is what the program is for (`cp a f`, `touch f`, `sed -i … f`, `dd of=f`), so
 * an allow rule for the command covers it inside the project; a redirection, `tee` or an output option
 * (`git diff --output=f`) is a write the rule does not say.
 */
export type WriteTarget = { path: string; via: string; operand?: true };
