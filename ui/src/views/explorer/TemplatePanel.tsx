import { useState } from "react";
import { commands } from "../../bindings";
import { errorMessage } from "../../errors";
import type { ReadResourceResult, ResourceTemplate } from "../../mcp/schema";
import { TemplateDetail } from "../../explorer/TemplateDetail";
import { completer } from "./completion";

export function TemplatePanel({ server, template }: { server: string; template: ResourceTemplate }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [contents, setContents] = useState<ReadResourceResult["contents"] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const read = (uri: string) =>
    commands.readResource(server, uri).then(
      (r) => {
        setContents((r as unknown as ReadResourceResult).contents);
        setError(null);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  return (
    <TemplateDetail
      server={server}
      template={template}
      values={values}
      onValues={setValues}
      complete={completer(server, { type: "ref/resource", uri: template.uriTemplate }, values)}
      onRead={(uri) => void read(uri)}
      contents={contents}
      error={error}
    />
  );
}
