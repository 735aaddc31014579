export function EmptyState({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="empty-state">
      <h2>{title}</h2>
      <p className="muted">{children}</p>
    </section>
  );
}
