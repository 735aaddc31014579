/** The words around content a server sent. */
export const content = {
  "content.annotations.for": "for {audience}",
  "content.annotations.user": "the user",
  "content.annotations.assistant": "the assistant",
  "content.annotations.otherRole": "the {role}",
  "content.annotations.priority": "priority {priority}",
  "content.annotations.modified": "modified {when}",

  "content.binary.unknownType": "unknown type",
  "content.binary.notBase64": "{kind}: the data is not valid base64, so it is not shown.",
  "content.binary.image": "Image ({kind}, {size})",
  "content.binary.audio": "Audio ({kind}, {size})",
  "content.binary.caption": "{kind}, {size}",
  "content.binary.svg": "SVG image, {size}: not drawn, since SVG can carry scripts.",
  "content.binary.svgSource": "SVG source",
  "content.binary.other": "Binary data, {kind}, {size}",

  "content.unknown.ofType": "Content this app cannot show ({type}):",
  "content.unknown.untyped": "Content this app cannot show:",

  "content.resource.empty": "The resource has no contents.",
  "content.link.typeAndSize": "{type}, {size}",
  "content.link.read": "Read",
  "content.link.readLabel": "Read {uri}",

  "content.text.viewAsMarkdown": "View as markdown",
  "content.markdown.image": "[Image: {alt}]",
  "content.markdown.imageNoAlt": "[Image: no description]",
  "content.markdown.linkUrl": " ({url})",
  "content.markdown.copyLabel": "Copy this code",
  "content.markdown.copy": "Copy",
  "content.markdown.copied": "Copied",
  "content.markdown.copyFailed": "Could not copy",

  "content.result.label": "Tool result",
  "content.result.failed": "The tool reported an error",
  "content.result.empty": "The tool returned no content.",
  "content.result.structured": "Structured content",
  "content.result.meta": "Metadata (_meta)",
} as const;
