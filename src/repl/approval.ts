/** Parses the person's answer to an approval prompt: y, n [reason], a. Anything else asks again. */
export type ApprovalAnswer = { answer: "yes" } | { answer: "no"; reason?: string } | { answer: "always" };

export function parseApproval(line: string): ApprovalAnswer | undefined {
  const m = /^\s*(y|yes|n|no|a|always)\b[\s:,-]*(.*)$/i.exec(line);
  if (!m) return undefined;
  const word = m[1]!.toLowerCase();
  if (word.startsWith("y")) return { answer: "yes" };
  if (word.startsWith("a")) return { answer: "always" };
  const reason = m[2]!.trim();
  return reason ? { answer: "no", reason } : { answer: "no" };
}

export const APPROVAL_PROMPT = "allow? [y]es · [n]o (optionally: n <reason for the model>) · [a]lways for ";
