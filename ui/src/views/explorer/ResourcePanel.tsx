import { useState } from "react";
import { commands } from "../../bindings";
import { errorMessage } from "../../errors";
import type { InitializeResult, ReadResourceResult, Resource } from "../../mcp/schema";
import { ResourceDetail } from "../../explorer/ResourceDetail";
import { useFetched, useHostUpdates } from "../../host/updates";
import { useHostCall } from "./useHostCall";

/** A resource: read it, and follow its updates while subscribed. */
export function ResourcePanel({ server, resource }: { server: string; resource: Resource }) {
  const info = useFetched(() => commands.serverInfo(server), ["status"], [server]);
  const canSubscribe = (info.data as InitializeResult | null)?.capabilities.resources?.subscribe === true;
  const read = useHostCall<ReadResourceResult>();
  const [subscribed, setSubscribed] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const readNow = () => void read.run(commands.readResource(server, resource.uri));

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
