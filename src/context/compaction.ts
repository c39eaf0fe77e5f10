/** What compacting a request did: messages and estimated tokens before and after (the loop reports it once a turn). */
export type Compaction = { messagesBefore: number; messagesAfter: number; tokensBefore: number; tokensAfter: number };
