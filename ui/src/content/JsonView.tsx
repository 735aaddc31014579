import "./content.css";

/** Any JSON-like value, pretty-printed. */
export function JsonView({ value }: { value: unknown }) {
  return (
    <pre className="json-view">
      <code>{stringify(value)}</code>
    </pre>
  );
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    // Cycles or BigInts cannot be JSON; say something rather than fail the whole view.
    return String(value);
  }
}
