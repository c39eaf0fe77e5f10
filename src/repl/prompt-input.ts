import type { Key } from "./key-decoder.ts";
import { draftOf, edit, editKey, emptyDraft, type Draft } from "./line-editor.ts";
import { newer, older, startWalk, type HistoryWalk } from "./history-walk.ts";
import { cleanPaste, expandPastes, insertImage, insertPaste, recallPrompt, type Pastes } from "./paste.ts";
import type { PromptImage } from "./pasted-image.ts";

/** What a key did to the prompt, for the REPL to act on. */
export type InputAction =
  | { type: "edited" }
  /** Enter: `text` is what is sent (pastes expanded), `shown` the draft as it was drawn. */
  | { type: "submit"; text: string; shown: string }
  | { type: "eof" }
  | { type: "interrupt" }
  | { type: "escape" }
  | { type: "none" };

/** Completions of the word before the cursor: what replaces `token`. */
export type Completer = (before: string) => Promise<{ token: string; candidates: string[] }>;

const NO_PASTES: Pastes = new Map();

/**
 * The prompt's state as keys change it: the draft (several lines when Alt-Enter, Ctrl-J or a
 * trailing `\` adds them), its collapsed pastes, the walk through history and a completion list.
 * It draws nothing: the REPL renders `draft`, `choices` and the pastes' placeholders. `pastedImage`
 * tells a paste that is a path to an image, which becomes a placeholder standing for its `@` mention.
 */
export function createPromptInput(history: { entries: readonly string[] }, complete: Completer, pastedImage?: (text: string) => PromptImage | undefined) {
  let draft: Draft = emptyDraft;
  let pastes: Pastes = NO_PASTES;
  let walk: HistoryWalk | undefined;
  /** Completions listed below the prompt after a Tab that could not extend the word. */
  let choices: string[] = [];
  let onAsyncChange: () => void = () => {};

  const set = (next: Draft, keepWalk = false) => {
    draft = next;
    if (!keepWalk) walk = undefined;
    choices = [];
  };
  const show = (text: string, next: HistoryWalk) => {
    const recalled = recallPrompt(text);
    pastes = recalled.pastes;
    set(draftOf(recalled.text), true);
    walk = next;
  };
  const atoms = () => [...pastes.keys()];
  // A mention begins after whitespace: the placeholder is kept apart from a word before it.
  const withImage = (image: PromptImage): Draft => {
    const added = insertImage(image.name, image.mention, pastes);
    pastes = added.pastes;
    return edit.insert(draft, /\S$/.test(draft.text.slice(0, draft.cursor)) ? ` ${added.insert}` : added.insert);
  };

  function historyStep(direction: "up" | "down"): InputAction {
    const current = walk ?? startWalk(history.entries, draft.text);
    const shown = expandPastes(draft.text, pastes);
    const step = direction === "up" ? older(history.entries, current, shown) : newer(history.entries, current, shown);
    if (!step) return { type: "none" };
    show(step.text, step.walk);
    return { type: "edited" };
  }

  function tab(): InputAction {
    const before = draft.text.slice(0, draft.cursor);
    const asked = draft;
    void complete(before).then(({ token, candidates }) => {
      if (draft !== asked || candidates.length === 0) return;
      const common = commonPrefix(candidates);
      if (common.length > token.length) {
        set(edit.insert({ text: draft.text.slice(0, draft.cursor - token.length) + draft.text.slice(draft.cursor), cursor: draft.cursor - token.length }, common));
      } else if (candidates.length > 1) choices = candidates;
      onAsyncChange();
    });
    return { type: "none" };
  }

  function enter(): InputAction {
    // A trailing backslash continues the prompt on a new line, as in a shell.
    if (draft.cursor === draft.text.length && draft.text.endsWith("\\")) {
      set({ text: draft.text.slice(0, -1) + "\n", cursor: draft.text.length });
      return { type: "edited" };
    }
    const action: InputAction = { type: "submit", text: expandPastes(draft.text, pastes), shown: draft.text };
    pastes = NO_PASTES;
    set(emptyDraft);
    return action;
  }

  function key(k: Key): InputAction {
    const changed = (next: Draft): InputAction => {
      set(next);
      return { type: "edited" };
    };
    switch (k.name) {
      case "paste": {
        const text = cleanPaste(k.text);
        const image = pastedImage?.(text);
        if (image) return changed(withImage(image));
        const added = insertPaste(text, pastes);
        pastes = added.pastes;
        return changed(edit.insert(draft, added.insert));
      }
      case "enter":
        return k.meta ? changed(edit.insert(draft, "\n")) : enter();
      case "up":
      case "down": {
        const moved = k.name === "up" ? edit.up(draft) : edit.down(draft);
        return moved ? (set(moved, true), { type: "edited" }) : historyStep(k.name);
      }
      case "ctrl-p":
        return historyStep("up");
      case "ctrl-n":
        return historyStep("down");
      case "tab":
        return tab();
      case "ctrl-d":
        return draft.text === "" ? { type: "eof" } : changed(edit.delete(draft, atoms()));
      case "ctrl-c":
        return { type: "interrupt" };
      case "escape":
        return { type: "escape" };
      default: {
        const edited = editKey(draft, k, atoms());
        return edited ? changed(edited) : { type: "none" };
      }
    }
  }

  return {
    key,
    get draft(): Draft {
      return draft;
    },
    get choices(): readonly string[] {
      return choices;
    },
    /** Whether the draft is a prompt recalled from history (↑/↓ walk history, not the slash menu). */
    get recalled(): boolean {
      return walk !== undefined;
    },
    /** Puts `text` in the prompt, the cursor at its end (a command picked from the slash menu). */
    replace(text: string): void {
      pastes = NO_PASTES;
      set({ text, cursor: text.length });
    },
    /** Puts an earlier prompt back for editing (an undone turn's), a long one collapsed as ↑ shows it. */
    recall(text: string): void {
      const recalled = recallPrompt(text);
      pastes = recalled.pastes;
      set(draftOf(recalled.text));
    },
    /** Puts an image's placeholder in the prompt at the cursor, a space after it (`-i` before anything is typed). */
    addImage(image: PromptImage): void {
      set(edit.insert(withImage(image), " "));
    },
    /** Empties the prompt (Ctrl-C on a typed line, an aborted question's leftovers). */
    clear(): void {
      pastes = NO_PASTES;
      set(emptyDraft);
    },
    /** Called when a completion that finished later changed the prompt. */
    onChange(listener: () => void): void {
      onAsyncChange = listener;
    },
  };
}

function commonPrefix(words: readonly string[]): string {
  let prefix = words[0] ?? "";
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
