/** At most `size` holders at once; the others wait in order. */
export function createSlots(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async take(): Promise<() => void> {
      if (free > 0) free--;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let given = false;
      return () => {
        if (given) return;
        given = true;
        const next = waiting.shift();
        if (next) next();
        else free++;
      };
    },
  };
}
