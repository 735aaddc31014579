import type { Serving } from "../bindings";

/** What every request that waits for the person carries. */
export interface PendingBase {
  id: number;
  /** The server that asks: always shown. */
  server: string;
  /** When the host answers by itself (deny, decline or cancel), in ms since the Unix epoch. */
  deadlineMs: number;
  /** For what a server asks: the calls it was serving when it asked, whose they are. */
  during?: readonly Serving[];
}

/** How far an "allow" for a tool call reaches. */
export type Remember = "once" | "tool_for_session" | "server_for_session" | "tool_always" | "server_always";

export type ApprovalKind = "tool_call" | "read" | "sampling" | "elicitation" | "roots" | "agent_roots" | "sign_in";
