import { createContext, useContext } from "react";
import type { ResourceLink } from "../mcp/schema";

/** Opens a resource a result links to in the explorer, and reads it. */
export type OpenResource = (server: string, link: ResourceLink) => void;

export const OpenResourceContext = createContext<OpenResource | null>(null);

/** How a panel opens the resources its results link to; none outside the explorer. */
export function useOpenResource(server: string): ((link: ResourceLink) => void) | undefined {
  const open = useContext(OpenResourceContext);
  return open ? (link) => open(server, link) : undefined;
}

/** The kept flag that asks a resource's panel to read it once it shows. */
export const readOnOpenKey = (server: string, uri: string) => `resource:${server}/${uri}:readOnOpen`;
