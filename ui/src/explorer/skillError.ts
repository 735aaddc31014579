import type { SkillError } from "../bindings";
import { t } from "../i18n";

/** Why a skill did not pass its manifest's checks; sizes as the host counts them, the checker's words as they came. */
export function skillErrorText(error: SkillError): string {
  switch (error.kind) {
    case "notListed":
      return t("errors.skill.notListed", { uri: error.of });
    case "size":
      return t("errors.skill.size", { uri: error.of.uri, found: String(error.of.found), listed: String(error.of.listed) });
    case "digest":
      return t("errors.skill.digest", { uri: error.of.uri });
    case "frontmatter":
      return t("errors.skill.frontmatter", { uri: error.of.uri, why: error.of.why });
    case "empty":
      return t("errors.skill.empty", { uri: error.of.uri });
  }
}
