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

/** One response: optional reasoning summary paragraphs, then text, then calls (in that order). */
export type Turn = { reasoning?: string[]; text?: string; calls?: TurnCall[] };

export type ScriptedModel = (req: ScriptedRequest) => Turn | Promise<Turn>;
