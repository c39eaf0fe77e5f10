export type MeterLevel = "normal" | "amber" | "red";

export type ContextMeter = { percent: number; level: MeterLevel };

/** Context use as a share of the compaction threshold: amber from two thirds, red from 90%. */
export function contextMeter(tokens: number, threshold: number): ContextMeter {
  const share = threshold > 0 ? tokens / threshold : 1;
  const level: MeterLevel = share >= 0.9 ? "red" : share >= 2 / 3 ? "amber" : "normal";
  return { percent: Math.round(share * 100), level };
}
