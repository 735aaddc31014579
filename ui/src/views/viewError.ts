import type { ViewError } from "../bindings";
import { t } from "../i18n";

/** Why a server's view cannot be shown; sizes as the host counts them. */
export function viewErrorText(error: ViewError): string {
  switch (error.kind) {
    case "notUi":
      return t("errors.view.notUi", { uri: error.of });
    case "notHtml":
      return error.of.found == null ? t("errors.view.noType", { uri: error.of.uri }) : t("errors.view.notHtml", { uri: error.of.uri, type: error.of.found });
    case "empty":
      return t("errors.view.empty", { uri: error.of });
    case "tooLarge":
      return t("errors.view.tooLarge", { uri: error.of.uri, bytes: String(error.of.bytes), most: String(error.of.most) });
    case "notText":
      return t("errors.view.notText", { uri: error.of });
    case "notFile":
      return t("errors.view.notFile", { uri: error.of });
  }
}
