import type { Key } from "./key-decoder.ts";
import { movePick, pickedCommand, type MenuPick } from "./menu-pick.ts";
import type { createPromptInput } from "./prompt-input.ts";

type Options = {
  input: ReturnType<typeof createPromptInput>;
  /** The menu's rows for what is typed. */
  menu: (typed: string) => readonly (readonly [string, string])[];
  render: () => void;
  submit: (command: string) => void;
};

/** The slash menu's keys: ↑/↓ move through it while it shows (not while walking history); Tab takes the pick, Enter runs it. */
export function createSlashMenuKeys({ input, menu, render, submit }: Options) {
  /** The row ↑/↓ picked; any other key drops it. */
  let pick: MenuPick;
  const rows = () => (input.draft.text.startsWith("/") ? menu(input.draft.text) : []);
  return {
    picked: () => pick,
    /** Whether the key was the menu's. */
    key(key: Key): boolean {
      const shown = rows();
      if (shown.length === 0 || input.recalled) return false;
      if (key.name === "up" || key.name === "down") {
        pick = movePick(pick, shown.length, key.name);
        render();
        return true;
      }
      const picked = pick === undefined ? undefined : shown[pick];
      pick = undefined;
      if (!picked || (key.name !== "tab" && !(key.name === "enter" && !key.meta))) return false;
      const command = pickedCommand(picked[0]);
      input.replace(key.name === "tab" ? `${command} ` : "");
      if (key.name !== "tab") submit(command);
      render();
      return true;
    },
  };
}
