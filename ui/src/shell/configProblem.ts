import type { ConfigProblem } from "../bindings";
import { t } from "../i18n";

/** What is wrong with the configuration file, in the window's language; the parser's and the system's words as they came. */
export function configProblemText(problem: ConfigProblem): string {
  switch (problem.kind) {
    case "unreadable":
      return t("errors.config.unreadable", { path: problem.path, detail: problem.detail });
    case "invalid":
      // Line and column as the host counts them, not numbers to format.
      return t("errors.config.invalid", { path: problem.path, message: problem.message, line: String(problem.line), column: String(problem.column) });
    case "unwritable":
      return t("errors.config.unwritable", { path: problem.path, detail: problem.detail });
    case "interrupted":
      return t("errors.config.interrupted", { path: problem.path, why: problem.why });
    case "said":
      return problem.text;
  }
}
