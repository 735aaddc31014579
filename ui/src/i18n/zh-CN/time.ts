import type { Catalogue } from "../catalogue";
import type { time as english } from "../en/time";

/** 各视图书写时间和时长的方式。 */
export const time: Catalogue<typeof english> = {
  "time.unknown": "时间未知",
  "time.duration.ms": "{ms} 毫秒",
  "time.duration.seconds": "{seconds} 秒",
  "time.duration.minutes": "{minutes} 分 {seconds} 秒",
  "time.duration.hours": "{hours} 小时 {minutes} 分",
  "size.bytes": "{count, plural, other {# 字节}}",
  "size.kilobytes": "{size} KB",
  "size.megabytes": "{size} MB",
};
