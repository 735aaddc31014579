import type { Pending_Serialize as Pending, Serving } from "../bindings";

/** What every request that waits for the person carries, as its dialog shows it. */
export type PendingBase = Pick<Pending, "id" | "server" | "deadlineMs"> & {
  /** For what a server asks: the calls it was serving when it asked, whose they are. */
  during?: readonly Serving[];
};

/** What is asked: a tool call, a read, a model reply, a form, folders, a sign-in. */
export type ApprovalKind = Pending["question"]["kind"];
