/** Times, durations and sizes as every view writes them. */
export const time = {
  "time.unknown": "unknown time",
  "time.duration.ms": "{ms} ms",
  "time.duration.seconds": "{seconds} s",
  "time.duration.minutes": "{minutes} min {seconds} s",
  "time.duration.hours": "{hours} h {minutes} min",
  "size.bytes": "{count, plural, one {# byte} other {# bytes}}",
  "size.kilobytes": "{size} KB",
  "size.megabytes": "{size} MB",
} as const;
