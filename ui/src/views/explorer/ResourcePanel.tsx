import { useState } from "react";
import { commands } from "../../bindings";
import { errorMessage } from "../../errors";
import type { InitializeResult, ReadResourceResult, Resource } from "../../mcp/schema";
import { ResourceDetail } from "../../explorer/ResourceDetail";
import { useFetched, useHostUpdates } from "../../host/updates";

/** A resource: read it, and follow its updates while subscribed. */
export function ResourcePanel({ server, resource }: { server: string; resource: Resource }) {
  const info = useFetched(() => commands.serverInfo(server), ["status"], [server]);
  const canSubscribe = (info.data as InitializeResult | null)?.capabilities.resources?.subscribe === true;
  const [contents, setContents] = useState<ReadResourceResult["contents"] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [subscribed, setSubscribed] = useState(false);
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);

  const read = () =>
    commands.readResource(server, resource.uri).then(
      (r) => {
        setContents((r as unknown as ReadResourceResult).contents);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );

  useHostUpdates((update) => {
    if (subscribed && update.kind === "resource_updated" && update.server === server && update.uri === resource.uri) {
      setUpdatedAt(Date.now());
      void read();
    }
  });

  const toggle = () =>
    commands.subscribeResource(server, resource.uri, !subscribed).then(
      () => setSubscribed(!subscribed),
      (err: unknown) => setError(errorMessage(err)),
    );

  return (
    <ResourceDetail
      server={server}
      resource={resource}
      onRead={() => void read()}
      contents={contents}
      subscribed={subscribed}
      canSubscribe={canSubscribe}
      onToggleSubscribe={() => void toggle()}
      updatedAt={updatedAt}
      error={error}
    />
  );
}
