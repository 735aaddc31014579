import type { ExportWords } from "../bindings";
import { t } from "../i18n";

/**
 * The words a Markdown export is written in: the window's language's. The host puts the
 * names in where `{uri}`, `{server}` and `{tool}` stand, so those are passed through as
 * they are written.
 */
export function exportWords(): ExportWords {
  const names = { uri: "{uri}", server: "{server}", tool: "{tool}" };
  return {
    untitled: t("chat.list.untitled"),
    you: t("chat.export.you"),
    model: t("chat.export.model"),
    reasoning: t("chat.export.reasoning"),
    hiddenReasoning: t("chat.export.hiddenReasoning"),
    image: t("chat.export.image"),
    attached: t("chat.export.attached", names),
    appWrote: t("chat.export.appWrote", names),
    appTold: t("chat.export.appTold", names),
    toolCall: t("chat.export.toolCall"),
    toolOf: t("chat.export.toolOf", names),
    toolResult: t("chat.export.toolResult"),
    toolError: t("chat.export.toolError"),
    notRun: t("chat.export.notRun"),
    edited: t("chat.export.edited"),
    summary: t("chat.export.summary"),
  };
}
