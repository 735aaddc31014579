import { useState } from "react";
import { commands } from "../../bindings";
import type { ReadResourceResult, ResourceTemplate } from "../../mcp/schema";
import { TemplateDetail } from "../../explorer/TemplateDetail";
import { completer } from "./completion";
import { useHostCall } from "./useHostCall";

export function TemplatePanel({ server, template }: { server: string; template: ResourceTemplate }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const read = useHostCall<ReadResourceResult>();
  return (
    <TemplateDetail
      server={server}
      template={template}
      values={values}
      onValues={setValues}
      complete={completer(server, { type: "ref/resource", uri: template.uriTemplate }, values)}
      onRead={(uri) => void read.run(commands.readResource(server, uri))}
      contents={read.result?.contents ?? null}
      error={read.error}
    />
  );
}
