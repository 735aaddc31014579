import type { Book, FileNotice } from "../bindings";
import { t, type MessageId } from "../i18n";

const MOVED_ASIDE: { readonly [B in Book]: MessageId } = {
  auditLog: "shell.notice.movedAside.auditLog",
  conversations: "shell.notice.movedAside.conversations",
  tasks: "shell.notice.movedAside.tasks",
};

const NOT_KEPT: { readonly [B in Book]: MessageId } = {
  auditLog: "shell.notice.notKept.auditLog",
  conversations: "shell.notice.notKept.conversations",
  tasks: "shell.notice.notKept.tasks",
};

/** What the host had to do about a file it keeps, in the window's language; paths, SQLite's words and the setting's value as they came. */
export function fileNoticeText(notice: FileNotice): string {
  switch (notice.kind) {
    case "movedAside":
      return t(MOVED_ASIDE[notice.book], { from: notice.from, to: notice.to, why: notice.why });
    case "notKept":
      return t(NOT_KEPT[notice.book], { error: notice.error });
    case "retentionUnread":
      return t("shell.notice.retentionUnread", { key: notice.key, value: notice.value });
  }
}
