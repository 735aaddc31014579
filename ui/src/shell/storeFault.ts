import type { Book, Fault } from "../bindings";
import { t } from "../i18n";

/** How a file the host keeps failed, in the window's language; the path and the system's or SQLite's words as they came. */
export function storeFaultText(book: Book, fault: Fault): string {
  switch (fault.kind) {
    case "database":
      return t("errors.store.database", { book, path: fault.path, detail: fault.detail });
    case "moveAside":
      return t("errors.store.moveAside", { book, path: fault.path, why: fault.why, detail: fault.detail });
    case "private":
      return t("errors.store.private", { book, path: fault.path, detail: fault.detail });
    case "interrupted":
      return t("errors.store.interrupted", { book, why: fault.why });
  }
}
