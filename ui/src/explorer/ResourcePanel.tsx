import { useEffect } from "react";
import { commands } from "../bindings";
import { errorMessage } from "../errors";
import type { ReadResourceResult, Resource } from "../mcp/schema";
import { ResourceDetail } from "./ResourceDetail";
import { useFetched, useHostUpdates } from "../host/updates";
import { useHostCall } from "./useHostCall";
import { useKept } from "./kept";
import { readOnOpenKey } from "./openResource";

/** A resource: read it, and follow its updates while subscribed. */
export function ResourcePanel({ server, resource }: { server: string; resource: Resource }) {
  const info = useFetched(() => commands.serverInfo(server), ["status"], [server]);
  const canSubscribe = info.data?.capabilities.resources?.subscribe === true;
  const key = `resource:${server}/${resource.uri}`;
  const read = useHostCall<ReadResourceResult>(key);
  // The subscription lives in the host: the toggle shows it as it is when the person comes back.
  const [subscribed, setSubscribed] = useKept(`${key}:subscribed`, false);
  const [updatedAt, setUpdatedAt] = useKept<number | null>(`${key}:updatedAt`, null);
  const readNow = () => void read.run(commands.readResource(server, resource.uri));
  // Opened from a link in a result: read at once, as the person asked.
  const [readOnOpen, setReadOnOpen] = useKept(readOnOpenKey(server, resource.uri), false);
  useEffect(() => {
    if (!readOnOpen) return;
    setReadOnOpen(false);
    readNow();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readOnOpen]);

  useHostUpdates((update) => {
    if (subscribed && update.kind === "resource_updated" && update.server === server && update.uri === resource.uri) {
      setUpdatedAt(Date.now());
      readNow();
    }
  });

  const toggle = () =>
    commands.subscribeResource(server, resource.uri, !subscribed).then(
      () => setSubscribed(!subscribed),
      (err: unknown) => read.setError(errorMessage(err)),
    );

  return (
    <ResourceDetail
      server={server}
      resource={resource}
      onRead={readNow}
      contents={read.result?.contents ?? null}
      subscribed={subscribed}
      canSubscribe={canSubscribe}
      onToggleSubscribe={() => void toggle()}
      updatedAt={updatedAt}
      error={read.error}
    />
  );
}
