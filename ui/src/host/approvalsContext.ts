import { createContext, useContext } from "react";
import type { Pending_Serialize as Pending } from "../bindings";

export interface Approvals {
  pending: Pending[];
  /** The request the person picked in the queue; the oldest that comes forward is shown otherwise. */
  selectedId: number | null;
  select: (id: number) => void;
}

export const ApprovalsContext = createContext<Approvals>({ pending: [], selectedId: null, select: () => {} });

export function useApprovals(): Approvals {
  return useContext(ApprovalsContext);
}
