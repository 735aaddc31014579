import type { InstallError, InstallLinkError, RegistryError, Way } from "../bindings";
import { t } from "../i18n";
import { setsText } from "./sets";

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

/** Why installing a server from the registry is refused: an answer that does not fit what it sets, or what the entry declares amiss; the entry's names as they are, quoted where the host quotes them. */
export function installErrorText(error: InstallError): string {
  switch (error.kind) {
    case "missing":
      return t("errors.installMissing", { sets: setsText(error.of) });
    case "notAChoice":
      return t("errors.installNotAChoice", { sets: setsText(error.of.sets), choices: error.of.choices });
    case "badFormat":
      return t("errors.installBadFormat", { sets: setsText(error.of.sets), format: error.of.format, value: error.of.value });
    case "notPlain":
      return t("errors.installNotPlain", { sets: setsText(error.of) });
    case "noSuchWay":
      return t("errors.installNoSuchWay", { way: wayText(error.of) });
    case "unsupported":
      return t("errors.installUnsupported", { registryType: error.of });
    case "localHttp":
      return t("errors.installLocalHttp", { transport: error.of });
    case "badUrl":
      return t("errors.installBadUrl", { url: error.of });
    case "twice":
      return t("errors.installTwice", { name: error.of });
    case "badName":
      return t("errors.installBadName", { header: String(error.of.header), name: error.of.name });
  }
}

/** A way an entry runs, counted from 1 as the host counts them (not a number to format). */
function wayText(way: Way): string {
  return "package" in way ? t("errors.installWay.package", { number: String(way.package + 1) }) : t("errors.installWay.remote", { number: String(way.remote + 1) });
}
