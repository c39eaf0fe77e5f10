/** What a scripted model sees (only the request) and what it answers with. */
export type ScriptedRequest = {
  model: string;
  instructions: string | undefined;
  input: any[];
  tools: any[];
  /** The whole parsed request body. */
  body: any;
};

export type TurnCall = { name: string; arguments: object | string };

/**
 * One response: optional reasoning summary paragraphs, then text, then calls (in that order).
 * `commentary` (as gpt-5.3-codex streams it) comes first as a message of phase `commentary`; the
 * text then carries phase `final_answer` (or `commentary` when calls follow).
 */
export type Turn = { reasoning?: string[]; commentary?: string; text?: string; calls?: TurnCall[] };

export type ScriptedModel = (req: ScriptedRequest) => Turn | Promise<Turn>;
