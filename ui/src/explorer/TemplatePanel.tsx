import { commands } from "../bindings";
import type { ReadResourceResult, ResourceTemplate } from "../mcp/schema";
import { TemplateDetail } from "./TemplateDetail";
import { completer } from "./completion";
import { useHostCall } from "./useHostCall";
import { useKept } from "./kept";

export function TemplatePanel({ server, template }: { server: string; template: ResourceTemplate }) {
  const key = `template:${server}/${template.uriTemplate}`;
  const [values, setValues] = useKept<Record<string, string>>(`${key}:values`, {});
  const read = useHostCall<ReadResourceResult>(key);
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
