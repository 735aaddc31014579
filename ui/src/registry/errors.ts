import type { InstallLinkError, RegistryError } from "../bindings";
import { t } from "../i18n";

/** Why the registry could not be read, in the window's language; addresses, statuses and the system's words as they came, names quoted as the host quotes them. */
export function registryErrorText(error: RegistryError): string {
  switch (error.kind) {
    case "badUrl":
      return t("errors.registry.badUrl", { url: JSON.stringify(error.of) });
    case "unreachable":
      return t("errors.registry.unreachable", { url: error.of.url, reason: error.of.reason });
    case "timedOut":
      // A limit as the host counts it, not a number to format.
      return t("errors.registry.timedOut", { url: error.of.url, seconds: String(error.of.seconds) });
    case "redirected":
      return t("errors.registry.redirected", { url: error.of.url, to: error.of.to });
    case "status":
      return error.of.detail == null
        ? t("errors.registry.status", { url: error.of.url, status: error.of.status })
        : t("errors.registry.statusWhy", { url: error.of.url, status: error.of.status, detail: error.of.detail });
    case "notFound":
      return t("errors.registry.notFound", { name: JSON.stringify(error.of.name), version: error.of.version });
    case "notTheApi":
      return t("errors.registry.notTheApi", { url: error.of.url, reason: error.of.reason });
    case "tooLarge":
      return t("errors.registry.tooLarge", { url: error.of.url, mebibytes: String(error.of.mebibytes) });
  }
}

/** Why a `switchboard://` link is refused, in the window's language; what the link said, quoted as it came. */
export function installLinkErrorText(error: InstallLinkError): string {
  switch (error.kind) {
    case "notOurs":
      return t("errors.installLink.notOurs");
    case "notInstall":
      return t("errors.installLink.notInstall");
    case "noName":
      return t("errors.installLink.noName");
    case "badName":
      return t("errors.installLink.badName", { name: JSON.stringify(error.of) });
    case "badVersion":
      return t("errors.installLink.badVersion", { version: JSON.stringify(error.of) });
    case "twice":
      return t("errors.installLink.twice", { key: JSON.stringify(error.of) });
    case "unknown":
      return t("errors.installLink.unknown", { key: JSON.stringify(error.of) });
  }
}
