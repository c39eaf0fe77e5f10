export type Autosave = {
  /** Marks the session changed; a write follows within `delayMs`. Returns at once. */
  schedule(): void;
  /** Writes pending changes now and waits for any write in flight. Never rejects. */
  flush(): Promise<void>;
};

export type AutosaveOptions = { delayMs?: number; onError?: (err: unknown) => void };

/**
 * Coalesces saves: the first change starts a 400 ms timer and every change before it fires rides
 * along, so a long tool loop writes at most every 400 ms. The timer is not restarted by later
 * changes, or a busy loop would postpone the write forever. Writes never overlap; a failure goes
 * to `onError` and never into the caller's stream.
 */
export function createAutosave(save: () => Promise<void>, opts: AutosaveOptions = {}): Autosave {
  const delayMs = opts.delayMs ?? 400;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();

  function write(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(async () => {
      if (!dirty) return;
      dirty = false;
      try {
        await save();
      } catch (err) {
        opts.onError?.(err);
      }
    });
    return writing;
  }

  return {
    schedule() {
      dirty = true;
      timer ??= setTimeout(write, delayMs);
    },
    flush: write,
  };
}
